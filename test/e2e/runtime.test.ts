import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess } from '../support/runtime-process';

const javaProcessesFor = (dataDir: string): string[] => {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(dataDir));
};

/** Tests that start one or two runtimes (each a JVM) get room on a busy 2-core machine. */
const RUNTIME_TEST_TIMEOUT_MS = 120_000;

describe('the local runtime', () => {
  it('keeps users and settings across a restart on the same DATA_DIR, and honours closed registration', async () => {
    const first = await startRuntimeProcess({ env: { ADMIN_PASSWORD: 'restart-admin-pw' } });
    const { client, user, password } = await new ApiClient(first.baseUrl).signUp('survivor');
    await client.put('/api/settings', { theme: 'dark', items_per_page: 42 });
    await first.stop();

    const second = await startRuntimeProcess({ dataDir: first.dataDir, env: { REGISTRATION_MODE: 'closed' } });
    try {
      const anonymous = new ApiClient(second.baseUrl);
      const again = await anonymous.login(user.username, password);
      const admin = await anonymous.login('admin', 'restart-admin-pw');
      const closed = await anonymous.post('/api/auth/register', {
        username: 'latecomer',
        email: 'late@example.com',
        password: 'late-password',
      });

      expect((await again.get('/api/settings')).body).toMatchObject({ theme: 'dark', items_per_page: 42 });
      expect((await admin.get('/api/users')).status).toBe(200);
      expect(closed.status).toBe(403);
      expect(closed.body.error.code).toBe('FORBIDDEN');
    } finally {
      await second.stop();
    }
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('prints a generated admin password once and keeps it under DATA_DIR', async () => {
    const first = await startRuntimeProcess();
    const printed = /password:\s+(\S+)\s+\(generated once/.exec(first.output())?.[1];
    await first.stop();
    const second = await startRuntimeProcess({ dataDir: first.dataDir });
    try {
      expect(printed).toBeDefined();
      expect(second.output()).not.toContain(printed!);
      expect((await new ApiClient(second.baseUrl).post('/api/auth/login', { username: 'admin', password: printed })).status).toBe(200);
    } finally {
      await second.stop();
    }
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('stops every child process on SIGTERM', async () => {
    const runtime = await startRuntimeProcess();
    expect(javaProcessesFor(runtime.dataDir)).toHaveLength(1);

    const code = await runtime.stop();

    expect(code).toBe(0);
    expect(javaProcessesFor(runtime.dataDir)).toHaveLength(0);
  }, RUNTIME_TEST_TIMEOUT_MS);
});

describe('the local runtime and its database process', () => {
  const dynamoDbPort = (dataDir: string): number => {
    const line = javaProcessesFor(dataDir)[0] ?? '';
    return Number(/\s-port\s+(\d+)/.exec(line)?.[1]);
  };
  const listTables = (port: number, accessKeyId: string) =>
    new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'x' } })
      .send(new ListTablesCommand({}))
      .then((out) => out.TableNames ?? []);
  const until = async (condition: () => boolean, timeoutMs: number): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return condition();
  };

  it('ends the database process when the runtime is killed', async () => {
    const runtime = await startRuntimeProcess();
    expect(javaProcessesFor(runtime.dataDir)).toHaveLength(1);

    runtime.child.kill('SIGKILL');

    expect(await until(() => javaProcessesFor(runtime.dataDir).length === 0, 15_000)).toBe(true);
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('stops a database process that a crashed run left on the same DATA_DIR before it starts its own', async () => {
    const first = await startRuntimeProcess();
    const args = javaProcessesFor(first.dataDir)[0]!.trim().split(/\s+/).slice(1);
    await first.stop();
    // A JVM as an earlier version left it: not tied to any parent, on the same files.
    const orphan = spawn(args[0]!, args.slice(1), { detached: true, stdio: 'ignore', cwd: dirname(args.find((a) => a.endsWith('.jar'))!) });
    orphan.unref();
    expect(await until(() => javaProcessesFor(first.dataDir).length === 1, 15_000)).toBe(true);

    const second = await startRuntimeProcess({ dataDir: first.dataDir });
    try {
      const running = javaProcessesFor(first.dataDir);
      expect(running).toHaveLength(1);
      expect(running[0]).not.toMatch(new RegExp(`^\\s*${orphan.pid}\\s`));
    } finally {
      await second.stop();
    }
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('removes the OCR working files a killed run left in DATA_DIR/scratch when it starts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'docservice-scratch-'));
    const leftOver = join(dataDir, 'scratch', 'docservice-ocr-killed', 'page-1.png');
    await mkdir(dirname(leftOver), { recursive: true });
    await writeFile(leftOver, 'a page image of a document a killed run was reading');
    try {
      const runtime = await startRuntimeProcess({ dataDir });
      await runtime.stop();

      expect(await readdir(join(dataDir, 'scratch'))).toEqual([]);
      expect((await stat(join(dataDir, 'scratch'))).mode & 0o077).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('shows its tables only to a client with the access key id kept under DATA_DIR', async () => {
    const runtime = await startRuntimeProcess();
    try {
      const port = dynamoDbPort(runtime.dataDir);
      const keyId = (await readFile(join(runtime.dataDir, 'secrets', 'dynamodb-access-key-id'), 'utf8')).trim();

      const asOutsider = await listTables(port, 'AKIAOUTSIDER');
      const asRuntime = await listTables(port, keyId);

      expect(asOutsider).toEqual([]);
      expect(asRuntime).toContain('docservice');
      expect((await stat(join(runtime.dataDir, 'secrets'))).mode & 0o077).toBe(0);
      expect((await stat(join(runtime.dataDir, 'dynamodb'))).mode & 0o077).toBe(0);
    } finally {
      await runtime.stop();
    }
  }, RUNTIME_TEST_TIMEOUT_MS);

  it('keeps the users of a DATA_DIR whose tables are in the shared database of earlier versions', async () => {
    const first = await startRuntimeProcess({ env: { ADMIN_PASSWORD: 'upgrade-admin-pw' } });
    const { user, password } = await new ApiClient(first.baseUrl).signUp('upgrader');
    await first.stop();
    // The layout an earlier version wrote: one shared database file and no access key id.
    const keyFile = join(first.dataDir, 'secrets', 'dynamodb-access-key-id');
    const keyId = (await readFile(keyFile, 'utf8')).trim();
    await rename(join(first.dataDir, 'dynamodb', `${keyId}_us-east-1.db`), join(first.dataDir, 'dynamodb', 'shared-local-instance.db'));
    await rm(keyFile);

    const second = await startRuntimeProcess({ dataDir: first.dataDir });
    try {
      const login = await new ApiClient(second.baseUrl).post('/api/auth/login', { username: user.username, password });

      expect(login.status).toBe(200);
    } finally {
      await second.stop();
    }
  }, RUNTIME_TEST_TIMEOUT_MS);
});
