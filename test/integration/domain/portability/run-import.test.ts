import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket } from '../../../../shared/adapters/aws/provisioning';
import { inWorkspace } from '../../../../shared/container/kit/workspace-scope';
import { exportDepsOf, importDepsOf } from '../../../../functions/portability-worker/deps';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { archiveKeys, type ImportJob } from '../../../../shared/domain/portability/jobs';
import { runExport } from '../../../../shared/domain/portability/run-export';
import { runImport } from '../../../../shared/domain/portability/run-import';
import { aDocumentRecord } from '../../../support/builders';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { portabilityDeps, testKit } from '../../../support/test-kit';

/** An import on DynamoDB Local and the S3 emulator: what a failure while writing leaves behind. */
describe('an import that fails while writing', () => {
  let c: ReturnType<typeof portabilityDeps>;
  let archive: Buffer;

  beforeAll(async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('portability');
    await ensureBucket(s3, bucket);
    // An audit table of its own: the export reads the workspace's audit log into the archive.
    const audit = await freshTable();
    const kit = await testKit();
    c = portabilityDeps(kit, { s3, bucket, auditTableName: audit.tableName });
    // A workspace of a label, a rule and three documents with their files, exported once.
    const source = inWorkspace(c, { workspaceId: crypto.randomUUID() });
    const label = crypto.randomUUID();
    await source.labels.create({ id: label, name: 'invoices', color: '#112233', description: null, document_count: 0, created_by: 'u', created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z' });
    for (let i = 0; i < 3; i++) {
      const bytes = randomBytes(2048);
      const document = aDocumentRecord({ status: 'completed', size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), labels: [label] });
      await source.files.put(fileKeys.original(document.id), bytes, 'application/pdf');
      await source.documents.create(document);
    }
    const exportId = crypto.randomUUID();
    const at = new Date().toISOString();
    await c.portability.jobs(source.workspaceId).createExport({
      id: exportId, state: 'queued', created_by: 'u', created_at: at, updated_at: at, finished_at: null, documents_total: 0, documents_done: 0, bytes_done: 0,
      archive_key: null, archive_size: null, archive_sha256: null, failure_reason: null,
    });
    const exported = await runExport(exportDepsOf(c, source.workspaceId), exportId);
    expect({ exported, reason: (await c.portability.jobs(source.workspaceId).getExport(exportId))?.failure_reason }).toEqual({ exported: 'completed', reason: null });
    const stored = await c.portability.archives(source.workspaceId).read(archiveKeys.export(exportId));
    const parts: Uint8Array[] = [];
    for await (const chunk of stored!.body) parts.push(chunk);
    archive = Buffer.concat(parts);
  });

  /** A new workspace holding the archive as an uploaded import, queued. */
  async function queuedImport(): Promise<{ workspaceId: string; id: string }> {
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();
    const at = new Date().toISOString();
    await c.portability.archives(workspaceId).write(archiveKeys.import(id), (async function* () { yield archive; })(), 'application/gzip');
    const job: ImportJob = {
      id, state: 'queued', created_by: 'u', created_at: at, updated_at: at, finished_at: null, size: archive.byteLength,
      archive_key: archiveKeys.import(id), upload_expires_at: at, documents_total: 0, documents_done: 0, result: null, failure_reason: null,
    };
    await c.portability.jobs(workspaceId).createImport(job);
    return { workspaceId, id };
  }

  it('removes the documents, files, labels and rules it wrote and ends failed', async () => {
    const { workspaceId, id } = await queuedImport();
    const deps = importDepsOf(c, workspaceId);
    let creates = 0;
    const failingOnTheThird = {
      ...deps,
      documents: { list: (query: Parameters<typeof deps.documents.list>[0]) => deps.documents.list(query),
        delete: (documentId: string) => deps.documents.delete(documentId), create: async (...args: Parameters<typeof deps.documents.create>) => {
        if (++creates === 3) throw new Error('the table went away');
        return deps.documents.create(...args);
      } },
    };

    const outcome = await runImport(failingOnTheThird, id);

    const w = inWorkspace(c, { workspaceId });
    const job = await c.portability.jobs(workspaceId).getImport(id);
    const listed = await w.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'asc' });
    expect({ outcome, state: job?.state, documents: listed.pagination.total, labels: await w.labels.list(), rules: await w.rules.list() }).toEqual({
      outcome: 'failed',
      state: 'failed',
      documents: 0,
      labels: [],
      rules: [],
    });
  });

  it('leaves no original file of the documents it had written', async () => {
    const { workspaceId, id } = await queuedImport();
    const deps = importDepsOf(c, workspaceId);
    const written: string[] = [];
    const failingOnTheThird = {
      ...deps,
      documents: { list: (query: Parameters<typeof deps.documents.list>[0]) => deps.documents.list(query),
        delete: (documentId: string) => deps.documents.delete(documentId), create: async (...args: Parameters<typeof deps.documents.create>) => {
        written.push(args[0].id);
        if (written.length === 3) throw new Error('the table went away');
        return deps.documents.create(...args);
      } },
    };

    await runImport(failingOnTheThird, id);

    const archives = c.portability.archives(workspaceId);
    expect(await Promise.all(written.map((document) => archives.size(fileKeys.original(document))))).toEqual([null, null, null]);
  });

  it('imports the same archive into an empty workspace when nothing fails', async () => {
    const { workspaceId, id } = await queuedImport();

    const outcome = await runImport(importDepsOf(c, workspaceId), id);

    const w = inWorkspace(c, { workspaceId });
    expect({ outcome, documents: (await w.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'asc' })).pagination.total, labels: (await w.labels.list()).map((l) => [l.name, l.document_count]) }).toEqual({
      outcome: 'completed',
      documents: 3,
      labels: [['invoices', 3]],
    });
  });
  it('refuses a second import into the workspace while one holds it, keeping nothing of the second', async () => {
    const { workspaceId, id } = await queuedImport();
    const jobs = c.portability.jobs(workspaceId);
    await jobs.holdImportSlot('another-import');

    const outcome = await runImport(importDepsOf(c, workspaceId), id);

    expect({ outcome, reason: (await jobs.getImport(id))?.failure_reason }).toEqual({ outcome: 'failed', reason: 'import_running: another import into this workspace is running' });
  });

  it('finishes an import whose earlier run died while writing, without doubling anything', async () => {
    const { workspaceId, id } = await queuedImport();
    await runImport(importDepsOf(c, workspaceId), id);
    // As if the process had died after writing everything, before recording it: the message comes back.
    await c.portability.jobs(workspaceId).updateImport(id, { state: 'importing', result: null });
    await c.portability.archives(workspaceId).write(archiveKeys.import(id), (async function* () { yield archive; })(), 'application/gzip');

    const outcome = await runImport(importDepsOf(c, workspaceId), id);

    const w = inWorkspace(c, { workspaceId });
    expect({ outcome, documents: (await w.documents.list({ page: 1, perPage: 10, sort: 'created_at', order: 'asc' })).pagination.total, labels: (await w.labels.list()).map((l) => [l.name, l.document_count]) }).toEqual({
      outcome: 'completed',
      documents: 3,
      labels: [['invoices', 3]],
    });
  });
});
