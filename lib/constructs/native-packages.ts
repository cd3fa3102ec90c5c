/**
 * The native package of `@napi-rs/canvas` for a Lambda's architecture, as a folder to copy into its asset.
 *
 * npm installs only the binary of the machine it runs on (the platform packages are optional dependencies with
 * `cpu`/`os` fields), so an arm64 Lambda built on an x64 machine needs the arm64 package from elsewhere: it is
 * fetched once with the ordinary npm client (`npm pack`, from the configured registry), checked against the
 * integrity that package-lock.json records for it, and kept under `node_modules/.cache/`. Later builds, `cdk
 * synth` included, then work offline. Run `npx tsx lib/constructs/native-packages.ts` to fetch ahead of time.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Lambda architectures and their `@napi-rs/canvas` platform package (glibc: Amazon Linux 2023). */
export const CANVAS_PLATFORM_PACKAGES = {
  arm64: '@napi-rs/canvas-linux-arm64-gnu',
  x86_64: '@napi-rs/canvas-linux-x64-gnu',
} as const;

export type LambdaArchitecture = keyof typeof CANVAS_PLATFORM_PACKAGES;

interface LockEntry {
  version?: string;
  integrity?: string;
}

const lockEntry = (root: string, name: string): Required<LockEntry> => {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry?.version || !entry.integrity) throw new Error(`package-lock.json has no version and integrity for ${name}`);
  return { version: entry.version, integrity: entry.integrity };
};

/**
 * The folder holding `name`'s package.json and binary: node_modules/<name> when npm installed it (the build
 * machine has that architecture) and it is the locked version, else the checked copy in the cache (fetched
 * when missing).
 */
export const nativePackageDir = (architecture: LambdaArchitecture, root = REPO_ROOT): string => {
  const name = CANVAS_PLATFORM_PACKAGES[architecture];
  const { version, integrity } = lockEntry(root, name);
  const installed = path.join(root, 'node_modules', name);
  if (existsSync(path.join(installed, 'package.json'))) {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { version?: string };
    if (manifest.version === version) return installed;
  }
  const cached = path.join(root, 'node_modules', '.cache', 'docservice-lambda', `${name.replace('/', '+')}@${version}`);
  if (existsSync(path.join(cached, 'package.json'))) return cached;

  const work = `${cached}.partial`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--silent'], { cwd: root, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  const bytes = readFileSync(path.join(work, tarball));
  const [algorithm, expected] = integrity.split('-', 2) as [string, string];
  const actual = createHash(algorithm).update(bytes).digest('base64');
  if (actual !== expected) throw new Error(`${name}@${version}: the fetched tarball does not match package-lock.json's integrity`);
  execFileSync('tar', ['-xzf', path.join(work, tarball), '-C', work]);
  renameSync(path.join(work, 'package'), cached);
  rmSync(work, { recursive: true, force: true });
  if (!readdirSync(cached).some((file) => file.endsWith('.node'))) throw new Error(`${name}@${version} holds no .node binary`);
  return cached;
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const architecture of Object.keys(CANVAS_PLATFORM_PACKAGES) as LambdaArchitecture[]) {
    console.log(`${architecture}: ${nativePackageDir(architecture)}`);
  }
}
