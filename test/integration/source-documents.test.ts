import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { freshTable } from '../support/aws-resources';
import { aDocumentRecord } from '../support/builders';

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
