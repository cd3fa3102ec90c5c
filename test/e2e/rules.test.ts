import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { textPdf } from '../support/text-pdf';
import { eventually } from '../support/until';

const baseUrl = inject('baseUrl');

/** Labelling rules (issue 36): labels put on documents by their text, filename or title. */
describe('labelling rules', () => {
  const anonymous = new ApiClient(baseUrl);
  /** A workspace of its own: its rules label no other test's documents. */
  let admin: ApiClient;

  const label = async (name: string): Promise<string> => {
    const created = await admin.post('/api/labels', { name: `${name}-${Math.random().toString(36).slice(2, 8)}`, color: '#123456' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  const rule = async (body: Record<string, unknown>) => {
    const created = await admin.post('/api/rules', body);
    expect(created.status).toBe(201);
    return created.body as { id: string };
  };
  const labelsOf = async (id: string): Promise<string[]> => (await admin.get(`/api/documents/${id}`)).body.labels as string[];

  beforeAll(async () => {
    ({ client: admin } = await anonymous.signUp('rules'));
  });

  it("labels a PDF whose text layer matches a content rule once its text is read", async () => {
    const invoices = await label('invoices');
    await rule({ name: 'invoices', match: { field: 'content', algorithm: 'any', pattern: 'rechnung invoice' }, add_labels: [invoices] });

    const id = await admin.uploadDocument('scan.pdf', textPdf([['Invoice number 42, due in thirty days.']]));

    const labels = await eventually(() => labelsOf(id), (found) => found.includes(invoices), 30_000, 'the rule\'s label on the document');
    expect(labels).toContain(invoices);
  });

  it('labels a document by its filename as it is uploaded', async () => {
    const receipts = await label('receipts');
    await rule({ name: 'receipts', match: { field: 'filename', algorithm: 'regex', pattern: '^receipt-\\d+\\.png$' }, add_labels: [receipts] });

    const id = await admin.uploadDocument('Receipt-2026.png', pngImage(4, 4), { ocr_enabled: 'false' });

    expect(await labelsOf(id)).toContain(receipts);
  });

  it('applies a rule to the existing documents as a job that reports its progress', async () => {
    const contracts = await label('contracts');
    const matching = await admin.uploadDocument('contract-a.png', pngImage(4, 4), { ocr_enabled: 'false', title: 'Lease contract' });
    const other = await admin.uploadDocument('holiday.png', pngImage(4, 4), { ocr_enabled: 'false', title: 'Holiday photo' });
    const created = await rule({ name: 'contracts', match: { field: 'title', algorithm: 'fuzzy', pattern: 'contrakt' }, add_labels: [contracts] });

    const started = await admin.post(`/api/rules/${created.id}/apply`, {});

    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'queued', processed: 0 });
    const listed = await eventually(
      () => admin.get('/api/rules'),
      (response) => response.body.rules.find((r: { id: string }) => r.id === created.id)?.apply?.state === 'completed',
      30_000,
      'the run completed',
    );
    const run = listed.body.rules.find((r: { id: string }) => r.id === created.id).apply;
    expect(run).toMatchObject({ job_id: started.body.job_id, labelled: 1 });
    expect(run.processed).toBeGreaterThanOrEqual(2);
    expect({ matching: await labelsOf(matching), other: await labelsOf(other) }).toEqual({ matching: [contracts], other: [] });
  });

  it('refuses an invalid regular expression with a 400 naming the pattern', async () => {
    const any = await label('any');

    const response = await admin.post('/api/rules', { name: 'broken', match: { field: 'content', algorithm: 'regex', pattern: '(unclosed' }, add_labels: [any] });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'match.pattern' } });
  });

  it('refuses a rule naming a label that does not exist', async () => {
    const response = await admin.post('/api/rules', {
      name: 'ghost',
      match: { field: 'content', algorithm: 'any', pattern: 'x' },
      add_labels: ['00000000-0000-4000-8000-000000000000'],
    });

    expect(response.status).toBe(400);
    expect(response.body.error.details).toMatchObject({ field: 'add_labels', unknown_label_ids: ['00000000-0000-4000-8000-000000000000'] });
  });

  it('lets a viewer list the rules but not create one', async () => {
    const { client: viewer } = await admin.addMember('viewer');
    const any = await label('viewer');

    const [listed, created] = [
      await viewer.get('/api/rules'),
      await viewer.post('/api/rules', { name: 'nope', match: { field: 'content', algorithm: 'any', pattern: 'x' }, add_labels: [any] }),
    ];

    expect({ listed: listed.status, created: created.status }).toEqual({ listed: 200, created: 403 });
  });
});
