import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { textPdf } from '../support/text-pdf';
import { typedClient } from '../support/typed-client';
import { eventually } from '../support/until';
import { E2E_ADMIN } from './global-setup';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
/**
 * Scans of the OCRmyPDF corpus that the searches below tell apart: the brochure that says LinnSequencer on
 * several of them (linn.png, skew.pdf, cardinal.pdf's pages) and the one that says Linzensoep (typewriter.png).
 * Reading the rest of the corpus is the OCR suite's business (test/e2e/ocr.test.ts).
 */
const SCANS = ['linn.png', 'typewriter.png', 'skew.pdf', 'cardinal.pdf'] as const;

/** A runtime of its own: other suites upload the same scans, and "that document first" needs a known corpus. */
describe('search', () => {
  let runtime: RuntimeProcess;
  let anonymous: ApiClient;
  let editor: ApiClient;
  const ids: Record<string, string> = {};


  const completed = async (id: string): Promise<void> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { body } = await editor.get(`/api/documents/${id}`);
      if (body.status === 'completed') return;
      if (body.status === 'failed' || Date.now() > deadline) throw new Error(`OCR of ${id} did not complete: ${JSON.stringify(body)}`);
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  };

  const search = (query: string) => editor.get(`/api/search?${query}`);

  beforeAll(async () => {
    runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password } });
    anonymous = new ApiClient(runtime.baseUrl);
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    for (const name of SCANS) ids[name] = await editor.uploadDocument(name, readFileSync(join(CORPUS, name)));
    ids['script'] = await editor.uploadDocument('script.pdf', textPdf([['Beware of <script>alert(1)</script> in invoice INV-2024-004711']]));
    await Promise.all(Object.values(ids).map(completed));
    await Promise.all(Object.values(ids).map((id) => editor.searchable(id)));
  }, 300_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  // LinnSequencer is on several scans of the corpus (linn.png, cardinal.pdf and the skew pages are the same
  // brochure), so every one of them is found; Linzensoep is on one scan only, which comes first.
  it('finds every scan that says LinnSequencer', async () => {
    const response = await search('q=LinnSequencer&per_page=100');

    const found = response.body.results.map((r: { document_id: string }) => r.document_id);
    expect(response.status).toBe(200);
    expect(found).toEqual(expect.arrayContaining([ids['linn.png'], ids['cardinal.pdf']]));
    expect(found).not.toContain(ids['typewriter.png']);
    expect(response.body.results[0]).toEqual({ document_id: expect.any(String), title: expect.any(String), score: expect.any(Number), highlights: expect.any(Array) });
  });

  it('finds the one scan that says Linzensoep, first', async () => {
    // Through the client generated from the API contract (client/).
    const api = typedClient(editor.baseUrl, editor.token);

    const { data, response } = await api.GET('/api/search', { params: { query: { q: 'Linzensoep' } } });

    expect(response.status).toBe(200);
    expect(data?.results[0]?.document_id).toBe(ids['typewriter.png']);
  });

  it('finds words by the prefix typed, not by its stem: thes* finds a thesis and none of the scans that say "the"', async () => {
    // Arrange: "thes" stems to "the", which the brochure scans hold.
    const id = await editor.uploadDocument('thesis.pdf', textPdf([['A doctoral thesis on sequencers']]));
    await completed(id);
    await editor.searchable(id);

    // Act
    const response = await search(`q=${encodeURIComponent('thes*')}`);

    // Assert
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: { document_id: string }) => r.document_id)).toEqual([id]);
  });

  it('marks matches and escapes the rest of the text in highlights', async () => {
    const response = await search('q=beware');

    const snippet = response.body.results[0].highlights.map((h: { snippet: string }) => h.snippet).join(' ');
    expect(snippet).toContain('<mark>');
    expect(snippet).toContain('&lt;script&gt;');
    expect(snippet).not.toContain('<script>');
  });

  it('finds an invoice number from a fragment of it', async () => {
    const response = await search('q=4711');

    expect(response.body.results.map((r: { document_id: string }) => r.document_id)).toContain(ids['script']);
  });

  it('counts facets over the whole match set, not the page', async () => {
    const response = await search(`q=${encodeURIComponent('LinnSequencer OR Linzensoep')}&per_page=1`);

    const counted = Object.values(response.body.facets.mime_types as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(response.body.results).toHaveLength(1);
    expect(response.body.total).toBeGreaterThan(2);
    expect(counted).toBe(response.body.total);
    expect(response.body.facets.mime_types['image/png']).toBe(2);
  });

  it('refuses a missing query and bad filters JSON with 400', async () => {
    const missing = await search('');
    const badFilters = await search('q=invoice&filters=%7Bnot-json');

    expect(missing.status).toBe(400);
    expect(missing.body.error.details.field).toBe('q');
    expect(badFilters.status).toBe(400);
    expect(badFilters.body.error.details.field).toBe('filters');
  });

  it('answers the advanced search with the same shape, and refuses unknown fields naming them', async () => {
    const api = typedClient(editor.baseUrl, editor.token);

    const found = await api.POST('/api/search/advanced', { body: { query: { must: [{ field: 'content', value: 'Linzensoep', type: 'match' }] } } });
    const refused = await editor.post('/api/search/advanced', {
      query: { must: [{ field: 'colour', value: 'red', type: 'match' }] },
    });

    expect(found.response.status).toBe(200);
    expect(found.data?.results[0]?.document_id).toBe(ids['typewriter.png']);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error.details)).toContain('colour');
  });

  it('never returns a deleted document', async () => {
    const id = await editor.uploadDocument('gone.pdf', textPdf([['Quixotic zeppelin manifest']]));
    await completed(id);
    await editor.searchable(id);
    const before = await search('q=zeppelin');

    await editor.delete(`/api/documents/${id}`);
    const after = await eventually(() => search('q=zeppelin'), (response) => response.body.total === 0);

    expect(before.body.results.map((r: { document_id: string }) => r.document_id)).toContain(id);
    expect(after.body.results).toEqual([]);
  });

  it('finds a document by its new title after an edit', async () => {
    await editor.put(`/api/documents/${ids['cardinal.pdf']}`, { title: 'Ornithology handbook' });

    const response = await eventually(() => search('q=ornithology'), (found) => found.body.total > 0);

    expect(response.body.results[0]?.document_id).toBe(ids['cardinal.pdf']);
  });

  it('lets a viewer search', async () => {
    const { client: viewer } = await editor.addMember('viewer', 'searcher');

    const response = await viewer.get('/api/search?q=LinnSequencer');

    expect(response.status).toBe(200);
  });
});
