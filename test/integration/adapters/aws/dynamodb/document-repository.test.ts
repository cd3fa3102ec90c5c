import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../../../../../shared/adapters/aws/dynamodb/label-repository';
import type { DocumentQuery } from '../../../../../shared/domain/documents/ports';
import type { Label } from '../../../../../shared/domain/labels/label';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord } from '../../../../support/builders';
import { DynamoSourceRepository } from '../../../../../shared/adapters/aws/dynamodb/source-repository';

/** The workspace these repositories serve. */
const WORKSPACE_ID = crypto.randomUUID();

const aLabel = (name: string): Label => {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), name, color: '#000000', description: null, document_count: 0, created_by: 't', created_at: now, updated_at: now };
};

const query = (overrides: Partial<DocumentQuery> = {}): DocumentQuery => ({ page: 1, perPage: 20, sort: 'created_at', order: 'desc', ...overrides });

describe('document and label repositories', () => {
  let documents: DynamoDocumentRepository;
  let labels: DynamoLabelRepository;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    documents = new DynamoDocumentRepository(db, tableName, WORKSPACE_ID);
    labels = new DynamoLabelRepository(db, tableName, WORKSPACE_ID);
  });

  it('stores a document and reads it back with its labels as a list', async () => {
    const label = aLabel('stored');
    await labels.create(label);
    const document = aDocumentRecord({ labels: [label.id] });

    await documents.create(document);

    expect(await documents.get(document.id)).toEqual({ ...document, version: 1 });
    expect(await documents.getContent(document.id)).toEqual({ text: '' });
    expect((await labels.get(label.id))?.document_count).toBe(1);
  });

  it('refuses a document with a label that does not exist, and stores nothing', async () => {
    const document = aDocumentRecord({ labels: [crypto.randomUUID()] });

    await expect(documents.create(document)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });

    expect(await documents.get(document.id)).toBeNull();
  });

  it('counts each document once in a label, however often and concurrently it is assigned', async () => {
    const label = aLabel('concurrent');
    await labels.create(label);
    const docs = [aDocumentRecord(), aDocumentRecord(), aDocumentRecord()];
    await Promise.all(docs.map((d) => documents.create(d)));
    const ids = docs.map((d) => d.id);

    await Promise.all([1, 2, 3, 4].map(() => labels.assign(label.id, ids, new Date().toISOString())));

    expect((await labels.get(label.id))?.document_count).toBe(3);
    expect((await documents.list(query({ labelIds: [label.id] }))).pagination.total).toBe(3);
  });

  it('keeps counts exact when labels are replaced and documents deleted', async () => {
    const [a, b] = [aLabel('swap-a'), aLabel('swap-b')];
    await labels.create(a);
    await labels.create(b);
    const document = aDocumentRecord({ labels: [a.id] });
    await documents.create(document);

    await documents.update(document.id, { labels: [b.id] }, new Date().toISOString());
    const afterSwap = [(await labels.get(a.id))?.document_count, (await labels.get(b.id))?.document_count];
    await documents.delete(document.id);

    expect(afterSwap).toEqual([0, 1]);
    expect((await labels.get(b.id))?.document_count).toBe(0);
  });

  it('takes a deleted label off its documents even while they change', async () => {
    const label = aLabel('vanishing');
    await labels.create(label);
    const document = aDocumentRecord({ labels: [label.id] });
    await documents.create(document);

    await Promise.all([
      labels.delete(label.id),
      documents.update(document.id, { title: 'renamed' }, new Date().toISOString()).catch(() => null),
    ]);

    expect((await documents.get(document.id))?.labels).toEqual([]);
    expect(await labels.get(label.id)).toBeNull();
  });

  it('answers the unfiltered listing newest first with the total from the counter', async () => {
    const { db, tableName } = await freshTable();
    const own = new DynamoDocumentRepository(db, tableName, WORKSPACE_ID);
    const older = aDocumentRecord({ created_at: '2026-01-01T00:00:00.000Z' });
    const newer = aDocumentRecord({ created_at: '2026-02-01T00:00:00.000Z' });
    await own.create(older);
    await own.create(newer);

    const page = await own.list(query({ perPage: 1 }));

    expect(page.data.map((d) => d.id)).toEqual([newer.id]);
    expect(page.pagination).toMatchObject({ total: 2, total_pages: 2, has_next: true });
  });
});

type Db = Awaited<ReturnType<typeof freshTable>>['db'];

const LATER = '2026-01-01T00:10:00.000Z';

/** What the document repository keeps for sources: each source's document count, and the files by SHA-256. */
describe('documents of a source', () => {
  let db: Db;
  let tableName: string;
  const workspaceId = crypto.randomUUID();
  let sources: DynamoSourceRepository;
  let documents: DynamoDocumentRepository;

  beforeAll(async () => {
    ({ db, tableName } = await freshTable());
    sources = new DynamoSourceRepository(db, tableName, workspaceId);
    documents = new DynamoDocumentRepository(db, tableName, workspaceId);
  });

  it('counts the documents created from each source, and zero for one without any', async () => {
    const [source, other, empty] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    await documents.create(aDocumentRecord({ source_id: source }));
    await documents.create(aDocumentRecord({ source_id: source }));
    await documents.create(aDocumentRecord({ source_id: other }));
    await documents.create(aDocumentRecord());

    const counts = await sources.documentCounts([source, other, empty]);

    expect(counts).toEqual(new Map([[source, 2], [other, 1], [empty, 0]]));
  });

  it('counts one document fewer once a document of the source is deleted', async () => {
    const source = crypto.randomUUID();
    const document = aDocumentRecord({ source_id: source });
    await documents.create(document);
    await documents.create(aDocumentRecord({ source_id: source }));

    await documents.delete(document.id);

    expect((await sources.documentCounts([source])).get(source)).toBe(1);
  });

  it('finds a document by the SHA-256 of its file, and not once it is deleted', async () => {
    const sha256 = crypto.randomUUID();
    const document = aDocumentRecord({ sha256 });
    await documents.create(document);
    const found = await documents.findBySha256(sha256);

    await documents.delete(document.id);

    expect(found).toBe(document.id);
    expect(await documents.findBySha256(sha256)).toBeNull();
  });

  it('replaces a document file: size, hash and type change, and the hash finds it under the new value only', async () => {
    const [before, after] = [crypto.randomUUID(), crypto.randomUUID()];
    const document = aDocumentRecord({ sha256: before, source_id: crypto.randomUUID() });
    await documents.create(document);

    const replaced = await documents.replaceFile(document.id, { size: 99, sha256: after, mime_type: 'image/png' }, LATER);

    expect(replaced).toMatchObject({ size: 99, sha256: after, mime_type: 'image/png', updated_at: LATER, version: 2 });
    expect(await documents.get(document.id)).toEqual(replaced);
    expect(await documents.findBySha256(after)).toBe(document.id);
    expect(await documents.findBySha256(before)).toBeNull();
  });

  it('keeps the source document count when a document file is replaced', async () => {
    const source = crypto.randomUUID();
    const document = aDocumentRecord({ source_id: source });
    await documents.create(document);

    await documents.replaceFile(document.id, { size: 5, sha256: crypto.randomUUID(), mime_type: 'application/pdf' }, LATER);

    expect((await sources.documentCounts([source])).get(source)).toBe(1);
  });
});
