import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

const ADMIN = { username: 'limits-admin', password: 'limits-admin-password' };

/**
 * The P rate limits on a runtime of their own, with refills slow enough (one request a minute per user) that a
 * burst sent by a test is never topped up while it runs, nor while the runtime restarts.
 */
const LIMITS = {
  RATE_LIMIT_PER_MINUTE: '1',
  RATE_LIMIT_BURST: '20',
  UPLOAD_RATE_LIMIT_PER_MINUTE: '3',
  IP_RATE_LIMIT_PER_MINUTE: '6',
  IP_RATE_LIMIT_BURST: '40',
};

const burst = async (client: ApiClient, count: number, path = '/api/settings'): Promise<ApiResponse[]> => {
  const responses: ApiResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await client.get(path));
  return responses;
};

const upload = (client: ApiClient, name: string) => {
  const form = new FormData();
  form.append('ocr_enabled', 'false');
  form.append('file', new Blob([pngImage(8, 8)]), name);
  return client.upload('/api/documents/upload', form);
};

describe('rate limits', () => {
  let runtime: RuntimeProcess;
  let anonymous: ApiClient;
  // Logged in first: the IP test below spends the anonymous budget.
  let admin: ApiClient;

  beforeAll(async () => {
    runtime = await startRuntimeProcess({ env: { ...LIMITS, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
    anonymous = new ApiClient(runtime.baseUrl);
    admin = await anonymous.login(ADMIN.username, ADMIN.password);
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('answers the 21st request of a burst with 429, the P body, the limit headers and Retry-After', async () => {
    const { client } = await anonymous.signUp('burst');

    const responses = await burst(client, 21);

    expect(responses.slice(0, 20).map((r) => r.status)).toEqual(Array(20).fill(200));
    const refused = responses[20]!;
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { limit_per_minute: 1 } });
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('counts the remaining requests down, with a reset time in Unix seconds', async () => {
    const { client } = await anonymous.signUp('countdown');
    const before = Math.floor(Date.now() / 1000);

    const responses = await burst(client, 3);
    const after = Math.ceil(Date.now() / 1000);

    expect(responses.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['19', '18', '17']);
    const reset = Number(responses[2]!.headers.get('x-ratelimit-reset'));
    // Three requests at one a minute: the bucket is full again about three minutes after they were counted, which
    // a loaded machine may spread over a few seconds.
    expect(reset).toBeGreaterThanOrEqual(before + 179);
    expect(reset).toBeLessThanOrEqual(after + 182);
  });

  it('refuses an upload burst at its own limit while other requests still pass', async () => {
    // Registered users are viewers: the admin uploads.
    const client = admin;

    const uploads = [];
    for (let i = 0; i < 4; i++) uploads.push(await upload(client, `scan-${i}.png`));
    const read = await client.get('/api/documents');

    expect(uploads.map((r) => r.status)).toEqual([201, 201, 201, 429]);
    expect(uploads[3]!.headers.get('x-ratelimit-limit')).toBe('3');
    expect(read.status).toBe(200);
    expect(read.body.pagination.total).toBe(3);
  });

  it('slows a guessed username down without touching other names', async () => {
    const { user, password } = await anonymous.signUp('guessed');
    const other = await anonymous.signUp('bystander');

    const guesses = [];
    for (let i = 0; i < 6; i++) guesses.push((await anonymous.post('/api/auth/login', { username: user.username, password: 'wrong' })).status);
    const rightPassword = await anonymous.post('/api/auth/login', { username: user.username, password });
    const bystander = await anonymous.post('/api/auth/login', { username: other.user.username, password: other.password });

    expect(guesses).toEqual([401, 401, 401, 401, 401, 429]);
    expect(rightPassword.status).toBe(429);
    expect(rightPassword.headers.get('retry-after')).toBeTruthy();
    expect(bystander.status).toBe(200);
  });

  it('limits requests without a token by client IP', async () => {
    // The earlier tests used part of this IP's burst of 40; spend the rest.
    const responses: number[] = [];
    for (let i = 0; i < 40; i++) responses.push((await anonymous.post('/api/auth/refresh', {})).status);

    expect(responses).toContain(429);
    expect(responses.indexOf(429)).toBeGreaterThan(0);
    expect(responses.slice(responses.indexOf(429)).every((status) => status === 429)).toBe(true);
  });

  it('keeps a used-up limit across a restart of the runtime', async () => {
    // The admin's burst of 20 is partly spent by the upload test; 21 more requests certainly exhaust it.
    const used = await burst(admin, 21);

    await runtime.stop();
    runtime = await startRuntimeProcess({ dataDir: runtime.dataDir, env: { ...LIMITS, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
    const after = await new ApiClient(runtime.baseUrl, admin.token).get('/api/settings');

    expect(used[20]!.status).toBe(429);
    expect(after.status).toBe(429);
  }, 120_000);
});
