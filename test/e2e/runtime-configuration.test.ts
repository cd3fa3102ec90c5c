import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs `bin/local.ts` as the start command does, with `env` over the test's own, until it exits. */
function runRuntime(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

describe('starting the local runtime with a wrong variable', () => {
  it.each([
    { variable: 'PORT', value: 'abc' },
    { variable: 'LOG_LEVEL', value: 'loud' },
    { variable: 'LOG_FORMAT', value: 'xml' },
  ])('exits 1 before starting anything, with one line naming $variable=$value and no stack trace', async ({ variable, value }) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'docservice-config-'));
    try {
      const { code, stdout, stderr } = await runRuntime({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', [variable]: value });

      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^Invalid configuration: ${variable}: \\S`, 'u'))]);
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('names the levels LOG_LEVEL may take', async () => {
    const { stderr } = await runRuntime({ PORT: '0', DATA_DIR: join(tmpdir(), `docservice-never-${crypto.randomUUID()}`), LOG_LEVEL: 'loud' });

    expect(stderr).toContain('expected one of "debug"|"info"|"warn"|"error"');
  });
});
