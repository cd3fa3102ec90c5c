import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A package in an asset's node_modules that carries a native addon (a `.node` file). */
export interface NativePackage {
  name: string;
  version: string;
}

const packageDirs = (nodeModules: string): string[] =>
  existsSync(nodeModules)
    ? readdirSync(nodeModules).flatMap((entry) =>
        entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((name) => `${entry}/${name}`) : [entry],
      )
    : [];

/** The native packages an asset ships beside its index.mjs. */
export function nativePackages(asset: string): NativePackage[] {
  const nodeModules = join(asset, 'node_modules');
  return packageDirs(nodeModules).flatMap((name) => {
    const dir = join(nodeModules, name);
    if (!readdirSync(dir).some((file) => file.endsWith('.node'))) return [];
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string };
    return [{ name, version }];
  });
}

/** Node's name for an architecture as npm's platform packages spell it (`linux-arm64-gnu`, `linux-x64-gnu`). */
const archPart = (arch: string) => `-linux-${arch}-`;

/**
 * The asset as it can run on this machine. A native addon built for the function's architecture (arm64 on
 * Lambda) cannot load on another (this machine may be x64): the asset is copied and the same version of the
 * same package built for this machine, from the repository's node_modules, is put beside it. Everything else
 * (the bundle, its WebAssembly, worker and data files) stays as shipped. An asset without native packages, or
 * a machine of the function's architecture, runs the asset itself.
 */
export function runnableHere(asset: string, functionArch: string, repoNodeModules: string, removeAfter: string[]): string {
  const natives = nativePackages(asset);
  if (!natives.length || process.arch === functionArch) return asset;
  const copy = mkdtempSync(join(tmpdir(), 'bundles-asset-'));
  removeAfter.push(copy);
  cpSync(asset, copy, { recursive: true });
  for (const native of natives) {
    if (!native.name.includes(archPart(functionArch))) continue;
    const twin = native.name.replace(archPart(functionArch), archPart(process.arch));
    const source = join(repoNodeModules, twin);
    const version = existsSync(source) ? (JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string }).version : undefined;
    if (version !== native.version) {
      throw new Error(`${asset}: ships ${native.name}@${native.version}; this machine needs ${twin}@${native.version}, found ${version ?? 'none'}`);
    }
    cpSync(source, join(copy, 'node_modules', twin), { recursive: true });
  }
  return copy;
}
