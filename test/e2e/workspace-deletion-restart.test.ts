import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

const DOCUMENTS = 20;

describe('a workspace deletion whose runtime is killed as it starts', () => {
  let dataDir: string;
  let runtime: RuntimeProcess;
  const env = { ADMIN_USERNAME: 'erasure-admin', ADMIN_PASSWORD: 'erasure-admin-password' };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docservice-erasure-restart-'));
    runtime = await startRuntimeProcess({ dataDir, env });
  });

  afterAll(async () => {
    await runtime?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the erasure after a restart (its queue lived in memory)', async () => {
    const anonymous = new ApiClient(runtime.baseUrl);
    const { client, user, password } = await anonymous.signUp('doomed');
    const workspace = (await client.get('/api/workspace')).body;
    for (let i = 0; i < DOCUMENTS; i++) await client.uploadDocument(`pixel-${i}.png`, pngImage(8 + i, 8), { ocr_enabled: 'false' });

    const accepted = await client.request('DELETE', '/api/workspace', { confirm: workspace.name });
    runtime.child.kill('SIGKILL');
    await runtime.stop();
    runtime = await startRuntimeProcess({ dataDir, env });

    expect(accepted.status).toBe(202);
    const operator = await new ApiClient(runtime.baseUrl).login(env.ADMIN_USERNAME, env.ADMIN_PASSWORD);
    await expect
      .poll(async () => (await operator.get(`/api/audit?workspace_id=${workspace.id}&action=workspace.erased`)).body.pagination.total, { timeout: 60_000, interval: 500 })
      .toBe(1);
    expect((await new ApiClient(runtime.baseUrl).post('/api/auth/login', { username: user.username, password })).status).toBe(401);
  }, 240_000);
});
