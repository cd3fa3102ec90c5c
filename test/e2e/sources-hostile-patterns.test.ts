import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { HOSTILE_PATTERNS, hostileFileName, MOST_HOSTILE_ACCEPTED_PATTERN, syncWithHostilePatterns, type GlobAttackOutcome } from '../support/attacks/glob-patterns';
import { pdfDocument } from '../support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';

/*
 * /api/health is polled during the attack and must answer 200 each time (test/support/health-watch.ts). The
 * product's bound, within 2 s, is a target of bench/hostile-files.ts, which runs this attack at the review's
 * strength: a timed assertion here would fail on a loaded machine rather than on a slow service.
 */
/** The names of the folder: the review's forty 'a's, and as many as a file name may hold. */
const NAMES = [hostileFileName(40), hostileFileName(240)];

describe('a source whose file patterns nest wildcards', () => {
  let root: string;
  let dav: RunningDav;
  let runtime: RuntimeProcess;
  let editor: ApiClient;
  let outcome: GlobAttackOutcome;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hostile-patterns-'));
    // Real PDFs: a pattern that matched them would make documents of them.
    for (const name of NAMES) await writeFile(join(root, name), pdfDocument(`Named ${name.length} characters`));
    dav = await startRcloneDav({ root, username: 'sync', password: 'sync-password' });
    // A runtime of its own: the watch samples this process's memory. Loopback sources are allowed locally.
    runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: 'patterns-admin', ADMIN_PASSWORD: 'patterns-admin-password' } });
    editor = await new ApiClient(runtime.baseUrl).login('patterns-admin', 'patterns-admin-password');
    outcome = await syncWithHostilePatterns(runtime, editor, dav);
  }, 180_000);

  afterAll(async () => {
    await runtime?.stop();
    await dav?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("accepts the review's pattern and the most hostile one the bounds allow", () => {
    expect(outcome.create.status).toBe(201);
    expect(outcome.create.body.file_patterns).toEqual(HOSTILE_PATTERNS);
  });

  it('keeps /api/health answering 200 while the sync matches the patterns', () => {
    expect(outcome.watch.unhealthy).toBe(0);
  });

  it('finishes the sync, having considered no file', () => {
    expect(outcome.sync).toMatchObject({ state: 'completed', total: 0, processed: 0, failure: null });
  });

  it('imports neither file: the patterns match neither name', async () => {
    const documents = (await editor.get(`/api/documents?source_id=${outcome.create.body.id}`)).body;

    expect(documents.pagination.total).toBe(0);
  });

  it('answers other requests after the sync', async () => {
    const response = await fetch(`${runtime.baseUrl}/api/health`);

    expect(response.status).toBe(200);
  });

  it.each([
    ['one wildcard more than the bound', `${MOST_HOSTILE_ACCEPTED_PATTERN}?`, /wildcards/],
    ['braces nested four deep', '{a,{b,{c,{d,e}}}}.pdf', /nests/],
    ['more brace alternatives than the bound', `*.{${'x,'.repeat(32)}pdf}`, /alternatives/],
  ])('refuses a pattern with %s with 400 on that pattern', async (_case, pattern, reason) => {
    const response = await editor.post('/api/sources', { name: 'Refused', type: 'webdav', url: dav.url, username: dav.username, password: dav.password, file_patterns: ['*.pdf', pattern] });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file_patterns.1', reason: expect.stringMatching(reason) } });
  });

  it('refuses a change to a pattern beyond the bounds with 400 on that pattern', async () => {
    const response = await editor.put(`/api/sources/${outcome.create.body.id}`, { file_patterns: [`?${MOST_HOSTILE_ACCEPTED_PATTERN}`] });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'file_patterns.0', reason: expect.stringMatching(/wildcards/) } });
  });
});
