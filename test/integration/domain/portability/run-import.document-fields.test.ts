import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { tarGzipCodec } from '../../../../shared/adapters/archive/tar-gzip-codec';
import { ensureBucket } from '../../../../shared/adapters/aws/provisioning';
import { inWorkspace } from '../../../../shared/container/kit/workspace-scope';
import { exportDepsOf, importDepsOf } from '../../../../functions/portability-worker/deps';
import { downloadSearchablePdf } from '../../../../shared/domain/documents/searchable-pdf-download';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { MANIFEST_ENTRY, type ArchiveManifest } from '../../../../shared/domain/portability/archive-format';
import { archiveKeys, type ImportJob } from '../../../../shared/domain/portability/jobs';
import { runExport } from '../../../../shared/domain/portability/run-export';
import { runImport } from '../../../../shared/domain/portability/run-import';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { aDocumentRecord } from '../../../support/builders';
import { portabilityDeps, testKit } from '../../../support/test-kit';

const SEARCHABLE_PDF_FIELDS = ['searchable_pdf_size', 'searchable_pdf_reason', 'searchable_pdf_message'];

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The archive's entries, whole, in order. */
async function entriesOf(archive: Buffer): Promise<{ name: string; bytes: Buffer }[]> {
  const entries: { name: string; bytes: Buffer }[] = [];
  for await (const entry of tarGzipCodec.read((async function* () { yield archive; })())) entries.push({ name: entry.name, bytes: await collect(entry.body) });
  return entries;
}

/** The archive with each document line changed by `edit`, its manifest's sizes and checksums made to match again. */
async function withEditedDocuments(archive: Buffer, edit: (line: Record<string, unknown>) => Record<string, unknown>): Promise<Buffer> {
  const entries = (await entriesOf(archive)).map((entry) =>
    entry.name.startsWith('documents/')
      ? { name: entry.name, bytes: Buffer.from(entry.bytes.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.stringify(edit(JSON.parse(line)))).join('\n') + '\n') }
      : entry,
  );
  const manifestEntry = entries.find((entry) => entry.name === MANIFEST_ENTRY)!;
  const manifest = JSON.parse(manifestEntry.bytes.toString('utf8')) as ArchiveManifest;
  const byName = new Map(entries.map((entry) => [entry.name, entry.bytes]));
  manifest.entries = manifest.entries.map((listed) => ({ name: listed.name, size: byName.get(listed.name)!.byteLength, sha256: sha256(byName.get(listed.name)!) }));
  manifestEntry.bytes = Buffer.from(JSON.stringify(manifest));
  return collect(
    tarGzipCodec.write(async (sink) => {
      for (const entry of entries) await sink.add(entry.name, entry.bytes.byteLength, entry.bytes);
    }),
  );
}

/**
 * What of a document's record an archive carries (DynamoDB Local, the S3 emulator): the searchable PDF is not in
 * the archive, so neither is its state on the record, and an import keeps only a document's own fields.
 */
describe('document fields through an export and an import', () => {
  let c: ReturnType<typeof portabilityDeps>;
  let archive: Buffer;
  let documentId: string;

  beforeAll(async () => {
    const { s3 } = testClients();
    const bucket = uniqueName('portability-fields');
    await ensureBucket(s3, bucket);
    const audit = await freshTable();
    const kit = await testKit();
    c = portabilityDeps(kit, { s3, bucket, auditTableName: audit.tableName });
    // A workspace of one OCRed document whose searchable PDF was written beside its original.
    const source = inWorkspace(c, { workspaceId: crypto.randomUUID() });
    const bytes = randomBytes(2048);
    const pdf = randomBytes(3000);
    const document = aDocumentRecord({ status: 'completed', ocr_confidence: 0.9, size: bytes.byteLength, sha256: sha256(bytes), pages_ocred_by_engine: { tesseract: 1 }, searchable_pdf_size: pdf.byteLength });
    documentId = document.id;
    await source.files.put(fileKeys.original(document.id), bytes, 'application/pdf');
    await source.files.put(fileKeys.searchablePdf(document.id), pdf, 'application/pdf');
    await source.documents.create(document);
    const exportId = crypto.randomUUID();
    const at = new Date().toISOString();
    await c.portability.jobs(source.workspaceId).createExport({
      id: exportId, state: 'queued', created_by: 'u', created_at: at, updated_at: at, finished_at: null, documents_total: 0, documents_done: 0, bytes_done: 0,
      archive_key: null, archive_size: null, archive_sha256: null, failure_reason: null,
    });
    const exported = await runExport(exportDepsOf(c, source.workspaceId), exportId);
    expect(exported).toBe('completed');
    archive = await collect((await c.portability.archives(source.workspaceId).read(archiveKeys.export(exportId)))!.body);
  });

  /** A new, empty workspace holding `bytes` as an uploaded import, queued. */
  async function queuedImport(bytes: Buffer): Promise<{ workspaceId: string; id: string }> {
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();
    const at = new Date().toISOString();
    await c.portability.archives(workspaceId).write(archiveKeys.import(id), (async function* () { yield bytes; })(), 'application/gzip');
    const job: ImportJob = {
      id, state: 'queued', created_by: 'u', created_at: at, updated_at: at, finished_at: null, size: bytes.byteLength,
      archive_key: archiveKeys.import(id), upload_expires_at: at, documents_total: 0, documents_done: 0, result: null, failure_reason: null,
    };
    await c.portability.jobs(workspaceId).createImport(job);
    return { workspaceId, id };
  }

  it("writes no searchable PDF, nor the PDF's state, into the archive", async () => {
    const entries = await entriesOf(archive);

    const lines = entries.filter((entry) => entry.name.startsWith('documents/')).flatMap((entry) => entry.bytes.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>));
    expect(lines.map((line) => line['id'])).toEqual([documentId]);
    expect(SEARCHABLE_PDF_FIELDS.filter((field) => field in lines[0]!)).toEqual([]);
    expect(lines[0]).toMatchObject({ pages_ocred_by_engine: { tesseract: 1 }, ocr_confidence: 0.9, status: 'completed' });
    expect(entries.map((entry) => entry.name).filter((name) => name.includes(documentId))).toEqual([`files/${documentId}/original`]);
  });

  it("drops an archive line's searchable PDF state and stray fields, storing only the document's own", async () => {
    const edited = await withEditedDocuments(archive, (line) => ({
      ...line,
      searchable_pdf_size: 3000,
      searchable_pdf_reason: 'not_written',
      searchable_pdf_message: 'from elsewhere',
      pk: 'WS#someone-else#DOC#x',
      stray: 'kept out',
    }));
    const { workspaceId, id } = await queuedImport(edited);

    const outcome = await runImport(importDepsOf(c, workspaceId), id);

    const w = inWorkspace(c, { workspaceId });
    const imported = (await w.documents.get(documentId)) as unknown as Record<string, unknown>;
    expect({ outcome, failure: (await c.portability.jobs(workspaceId).getImport(id))?.failure_reason }).toEqual({ outcome: 'completed', failure: null });
    expect([...SEARCHABLE_PDF_FIELDS, 'stray'].filter((field) => field in imported)).toEqual([]);
    expect(imported).toMatchObject({ id: documentId, status: 'completed', pages_ocred_by_engine: { tesseract: 1 } });
  });

  it("answers an imported document's searchable PDF as not written yet, and counts only its original's bytes", async () => {
    const { workspaceId, id } = await queuedImport(archive);

    await runImport(importDepsOf(c, workspaceId), id);

    const w = inWorkspace(c, { workspaceId });
    const answer = await downloadSearchablePdf(w, documentId).then(() => null, (error: { details?: Record<string, unknown> }) => error.details?.['reason']);
    const month = await c.usage.month(workspaceId, new Date().toISOString().slice(0, 7));
    expect({ answer, bytes: month.bytes_stored }).toEqual({ answer: 'not_written_yet', bytes: 2048 });
  });
});
