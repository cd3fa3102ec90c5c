import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { FAST_PASSWORD_HASHING, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { eventually } from '../support/until';

const ROOT = resolve(import.meta.dirname, '../..');

/** The options each command's `--help` names (`--help` itself for all). */
const COMMAND_OPTIONS: Record<string, string[]> = {
  app: [],
  local: [],
  reindex: ['--target <local|aws>', '--data-dir <path>'],
  'reset-password': ['--username <name>', '--password-stdin', '--target <local|aws>', '--data-dir <path>'],
  usage: ['--month <YYYY-MM>'],
};

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bin/<command>.ts` as its npm script does, with `input` on stdin, until it exits. */
function run(command: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<Outcome> {
  // Without the shell's TABLE_NAME, which would make the commands ask for a --target.
  const { TABLE_NAME: _deployment, ...env } = process.env;
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `bin/${command}.ts`, ...args], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'warn', ...FAST_PASSWORD_HASHING, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const lines = (text: string) => text.trimEnd().split('\n');

describe('the bin/ commands', () => {
  it('are all described here', () => {
    const commands = readdirSync(join(ROOT, 'bin')).filter((file) => file.endsWith('.ts')).map((file) => file.slice(0, -'.ts'.length));

    expect(commands.sort()).toEqual(Object.keys(COMMAND_OPTIONS).sort());
  });

  it.each(Object.entries(COMMAND_OPTIONS))('%s --help prints its usage and every option, and exits 0', async (command, options) => {
    const { code, stdout, stderr } = await run(command, ['--help']);

    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: \S/u);
    for (const option of [...options, '-h, --help']) expect(stdout).toContain(`  ${option}  `);
  });

  it.each(Object.keys(COMMAND_OPTIONS))('%s --nope fails with one line on stderr, no stack trace, and exit code 2', async (command) => {
    const { code, stdout, stderr } = await run(command, ['--nope']);

    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(lines(stderr)).toEqual([`${command}: unknown option --nope (see --help)`]);
  });
});

describe('the commands on a local DATA_DIR', () => {
  const alice = { username: 'alice', email: 'alice@example.com', password: 'alice-old-password' };
  const bob = { username: 'bob', email: 'bob@example.com', password: 'bob-old-password' };
  let dataDir: string;
  let aliceToken: string;

  beforeAll(async () => {
    const first = await startRuntimeProcess();
    dataDir = first.dataDir;
    try {
      const anonymous = new ApiClient(first.baseUrl);
      for (const user of [alice, bob]) await anonymous.post('/api/auth/register', user);
      aliceToken = (await anonymous.post('/api/auth/login', { username: alice.username, password: alice.password })).body.token;
      const client = anonymous.withToken(aliceToken);
      await client.uploadDocument('quartz.png', pngImage(4, 4), { title: 'Zanzibar quartz', ocr_enabled: 'false' });
      await eventually(() => client.get('/api/search?q=zanzibar'), (found) => found.body.total === 1);
    } finally {
      await first.stop();
    }
  });

  describe('with the runtime stopped', () => {
    it('reset-password refuses an unknown username with one line and exit code 1', async () => {
      const { code, stdout, stderr } = await run('reset-password', ['--username', 'nobody', '--data-dir', dataDir]);

      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(lines(stderr)).toEqual(['reset-password: no user is named "nobody"']);
    });

    it('reindex rebuilds the index and says how many documents it holds', async () => {
      const { code, stdout } = await run('reindex', ['--data-dir', dataDir]);

      expect(code).toBe(0);
      expect(lines(stdout)).toEqual([expect.stringMatching(/^Rebuilt the search index: 1 documents in \d+\.\d s$/u)]);
    });
  });

  describe('after a reset of alice from stdin and of bob with a generated password, on a restarted runtime', () => {
    const newPassword = 'alice-new-password';
    let fromStdin: Outcome;
    let generated: Outcome;
    let second: RuntimeProcess;
    let anonymous: ApiClient;

    beforeAll(async () => {
      // One after the other: each command holds the DATA_DIR while it runs.
      fromStdin = await run('reset-password', ['--username', alice.username, '--password-stdin', '--data-dir', dataDir], { input: `${newPassword}\n` });
      generated = await run('reset-password', ['--username', 'BOB', '--data-dir', dataDir]);
      for (const outcome of [fromStdin, generated]) if (outcome.code !== 0) throw new Error(`the reset failed:\n${outcome.stderr}`);
      second = await startRuntimeProcess({ dataDir });
      anonymous = new ApiClient(second.baseUrl);
    });

    afterAll(async () => {
      await second?.stop();
    });

    it('prints the generated password once, and no password read from stdin', () => {
      expect(lines(fromStdin.stdout)).toEqual(['The password of alice is reset; every session of theirs has ended.']);
      expect(lines(generated.stdout)).toEqual([
        'The password of bob is reset; every session of theirs has ended.',
        expect.stringMatching(/^New password \(shown once\): [\w-]{24}$/u),
      ]);
    });

    it('lets alice log in with the password read from stdin', async () => {
      const login = await anonymous.post('/api/auth/login', { username: alice.username, password: newPassword });

      expect(login.status).toBe(200);
    });

    it('refuses the password alice had before', async () => {
      const login = await anonymous.post('/api/auth/login', { username: alice.username, password: alice.password });

      expect(login.status).toBe(401);
    });

    it('refuses a token issued before the reset', async () => {
      const profile = await anonymous.withToken(aliceToken).get('/api/users/profile');

      expect(profile.status).toBe(401);
    });

    it('lets bob log in with the generated password it printed', async () => {
      const password = lines(generated.stdout)[1]!.split(': ')[1]!;

      const login = await anonymous.post('/api/auth/login', { username: bob.username, password });

      expect(login.status).toBe(200);
    });

    it('serves searches from the rebuilt index', async () => {
      const token = (await anonymous.post('/api/auth/login', { username: alice.username, password: newPassword })).body.token;

      const found = await anonymous.withToken(token).get('/api/search?q=zanzibar');

      expect(found.body.total).toBe(1);
    });

    it.each([
      ['reset-password', ['--username', alice.username]],
      ['reindex', []],
    ])('%s refuses the DATA_DIR while the runtime runs on it, with one line and exit code 1', async (command, args) => {
      const { code, stdout, stderr } = await run(command, [...args, '--data-dir', dataDir]);

      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(lines(stderr)).toEqual([`${command}: DATA_DIR ${dataDir} is in use by the local runtime (pid ${second.child.pid}): stop it, then run this again`]);
    });
  });
});
