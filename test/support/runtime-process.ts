import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../shared/local/emulators/ports';

const ROOT = resolve(import.meta.dirname, '../..');

export interface RuntimeProcess {
  baseUrl: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /**
   * Sends SIGTERM and resolves with the exit code once the process is gone. With `group` (a runtime started with
   * `processGroup`) the signal goes to its whole process group, as Ctrl-C in a terminal or a service manager sends it.
   */
  stop(options?: { group?: boolean }): Promise<number | null>;
}

/**
 * Rate limits far above anything a suite sends: they have their own tests (test/e2e/rate-limits.test.ts), and
 * elsewhere they would turn a suite's requests into 429s. A test passes its own values in `env` to override them.
 */
export const RATE_LIMITS_OUT_OF_REACH: Record<string, string> = Object.fromEntries(
  ['RATE_LIMIT_PER_MINUTE', 'RATE_LIMIT_BURST', 'UPLOAD_RATE_LIMIT_PER_MINUTE', 'IP_RATE_LIMIT_PER_MINUTE', 'IP_RATE_LIMIT_BURST'].map(
    (name) => [name, '1000000'],
  ),
);

/**
 * Argon2id with one pass rather than the product's two (PASSWORD_HASH_COST): the e2e suites create hundreds of
 * users. The hasher's own tests use the product's parameters.
 */
export const FAST_PASSWORD_HASHING: Record<string, string> = { PASSWORD_HASH_COST: '1' };

/** The DATA_DIRs {@link startRuntimeProcess} made in this process, for {@link removeMadeDataDirs}. */
const madeDataDirs = new Set<string>();

/**
 * Removes the DATA_DIRs {@link startRuntimeProcess} made, once their runtimes are stopped: a test may start a
 * second runtime on a first one's DATA_DIR, so a runtime's stop leaves it (test/e2e/remove-data-dirs.ts).
 */
export async function removeMadeDataDirs(): Promise<void> {
  const dirs = [...madeDataDirs];
  madeDataDirs.clear();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
}

export interface RuntimeOptions {
  dataDir?: string;
  env?: Record<string, string>;
  /**
   * Variables that name the runtime's own address (an OIDC redirect URI, a front-end URL), made from its base
   * URL once its port is chosen; applied after `env`.
   */
  envFor?: (baseUrl: string) => Record<string, string>;
  processGroup?: boolean;
}

/**
 * Starts `bin/local.ts` as the README's start command does, and waits until /api/health answers 200. With
 * `processGroup` it leads a process group of its own, for a test to signal the group (`stop({ group: true })`).
 */
export async function startRuntimeProcess(options: RuntimeOptions = {}): Promise<RuntimeProcess> {
  let dataDir = options.dataDir;
  if (!dataDir) madeDataDirs.add((dataDir = await mkdtemp(join(tmpdir(), 'docservice-e2e-'))));
  // A free port may be taken by another process before the runtime binds it (the suites start emulators
  // beside it): a start that lost its port that way is made again on another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = await startOnPort(dataDir, port, options);
    if (started.ok || attempt === 3 || !(started.output.includes('EADDRINUSE') && started.output.includes(`:${port}`))) return unwrap(started);
  }
}

type Start = { ok: true; runtime: RuntimeProcess } | { ok: false; output: string; error: Error };

const unwrap = (started: Start): RuntimeProcess => {
  if (!started.ok) throw started.error;
  return started.runtime;
};

async function startOnPort(dataDir: string, port: number, options: RuntimeOptions): Promise<Start> {
  let output = '';
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...RATE_LIMITS_OUT_OF_REACH,
      ...FAST_PASSWORD_HASHING,
      ...options.env,
      ...options.envFor?.(baseUrl),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) return { ok: false, output, error: new Error(`the local runtime exited early:\n${output}`) };
    const healthy = await fetch(`${baseUrl}/api/health`).then((r) => r.status === 200, () => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      return { ok: false, output, error: new Error(`the local runtime did not become healthy:\n${output}`) };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    ok: true,
    runtime: {
      baseUrl,
      dataDir,
      child,
      output: () => output,
      stop: async ({ group = false } = {}) => {
        if (child.exitCode === null) {
          if (group) process.kill(-child.pid!, 'SIGTERM');
          else child.kill('SIGTERM');
        }
        return exited;
      },
    },
  };
}
