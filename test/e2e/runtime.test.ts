import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess } from '../support/runtime-process';

const javaProcessesFor = (dataDir: string): string[] => {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('DynamoDBLocal') && line.includes(dataDir));
};

describe('the local runtime', () => {
  it('keeps users and settings across a restart on the same DATA_DIR, and honours closed registration', async () => {
    const first = await startRuntimeProcess({ env: { ADMIN_PASSWORD: 'restart-admin-pw' } });
    const { client, user, password } = await new ApiClient(first.baseUrl).signUp('survivor');
    await client.put('/api/settings', { theme: 'dark', items_per_page: 42 });
    await first.stop();

    const second = await startRuntimeProcess({ dataDir: first.dataDir, env: { REGISTRATION_OPEN: 'false' } });
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
  });

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
  });

  it('stops every child process on SIGTERM', async () => {
    const runtime = await startRuntimeProcess();
    expect(javaProcessesFor(runtime.dataDir)).toHaveLength(1);

    const code = await runtime.stop();

    expect(code).toBe(0);
    expect(javaProcessesFor(runtime.dataDir)).toHaveLength(0);
  });
});
