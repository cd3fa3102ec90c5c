import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleSite } from '../../../shared/local/console-site';

describe('the local console site', () => {
  let dir: string;
  const site = () => createConsoleSite({ directory: dir, uploadOrigins: ['http://127.0.0.1:9000'] });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'console-site-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/main-ABC.js"></script>');
    await writeFile(join(dir, 'assets', 'main-ABC.js'), 'export {};');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers / with the page, not cached, with a CSP that allows scripts from the origin only and uploads to the S3 endpoint', async () => {
    const answer = await site().answer('GET', '/', {});

    expect(answer?.status).toBe(200);
    expect(answer?.headers['cache-control']).toBe('no-cache');
    expect(answer?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer?.headers['content-security-policy']).toContain("script-src 'self';");
    expect(answer?.headers['content-security-policy']).toContain("connect-src 'self' http://127.0.0.1:9000;");
    expect(answer?.headers['x-frame-options']).toBe('DENY');
  });

  it('answers a hashed asset immutable, and 304 to its ETag', async () => {
    const first = await site().answer('GET', '/assets/main-ABC.js', {});
    const again = await site().answer('GET', '/assets/main-ABC.js', { 'if-none-match': first?.headers['etag'] });

    expect(first?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first?.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(again?.status).toBe(304);
  });

  it('leaves other paths, methods and names that are not plain file names to the routes', async () => {
    for (const [method, path] of [
      ['GET', '/api/documents'],
      ['POST', '/'],
      ['GET', '/assets/../index.html'],
      ['GET', '/assets/%2e%2e/index.html'],
      ['GET', '/assets/missing-XYZ.js'],
    ] as const) {
      expect(await site().answer(method, path, {})).toBeNull();
    }
  });

  it('answers / with 503 and the build command when the console is not built', async () => {
    const answer = await createConsoleSite({ directory: join(dir, 'nothing') }).answer('GET', '/', {});

    expect(answer?.status).toBe(503);
    expect(answer?.body.toString()).toContain('web/build.ts');
  });
});
