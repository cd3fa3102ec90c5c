import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { tarGzipCodec } from '../../../../shared/adapters/archive/tar-gzip-codec';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { archiveKeys } from '../../../../shared/domain/portability/jobs';
import { runExport, type ExportDeps } from '../../../../shared/domain/portability/run-export';
import { validateArchive } from '../../../../shared/domain/portability/validate-archive';
import { aDocumentRecord, aSourceRecord, aUser } from '../../../support/builders';
import { aLabel, portabilityStores, type PortabilityStores } from './portability-stores';

const PASSWORD_HASH = 'scrypt$1$1$1$c2FsdA$c2VjcmV0LWhhc2g';
const WEBHOOK_SECRET = 'v1.sealed-webhook-signing-secret';
const SOURCE_PASSWORD = 'v1.sealed';

/** Exports over DynamoDB Local and the S3 emulator, written with the tar.gz codec, read back as an import would. */
describe('runExport', () => {
  let stores: Awaited<ReturnType<typeof portabilityStores>>;
  const logged: { message: string; fields: Record<string, unknown> }[] = [];

  /** What an export of `workspace` reads and writes. */
  const depsOf = (workspace: PortabilityStores): ExportDeps => ({
    ...workspace,
    codec: tarGzipCodec,
    workspace: () => stores.workspaces.findById(workspace.workspaceId),
    members: () => stores.users.list(workspace.workspaceId),
    usage: stores.usage,
    log: (message, fields) => void logged.push({ message, fields }),
  });
  /** A new workspace with a member, a label and `documents` documents of that label with their files. */
  const populated = async (documents = 2) => {
    const workspace = stores.inWorkspace();
    await stores.workspaces.create({ id: workspace.workspaceId, name: 'Acme', created_at: '2026-10-15T00:00:00.000Z' });
    await stores.users.create(aUser({ workspace_id: workspace.workspaceId, password_hash: PASSWORD_HASH }));
    const label = aLabel();
    await workspace.labels.create(label);
    const ids: string[] = [];
    for (let i = 0; i < documents; i++) {
      const bytes = new TextEncoder().encode(`%PDF-1.7 document ${i} ${workspace.workspaceId}`);
      const document = aDocumentRecord({ status: 'completed', size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex'), labels: [label.id] });
      await workspace.files.put(fileKeys.original(document.id), bytes, 'application/pdf');
      await workspace.documents.create(document);
      ids.push(document.id);
    }
    return { workspace, documentIds: ids };
  };
  /** A queued export of the workspace. */
  const queuedExport = async (workspace: PortabilityStores) => {
    const id = crypto.randomUUID();
    const at = stores.clock.now().toISOString();
    await workspace.portabilityJobs.createExport({
      id, state: 'queued', created_by: 'admin', created_at: at, updated_at: at, finished_at: null, documents_total: 0, documents_done: 0, bytes_done: 0,
      archive_key: null, archive_size: null, archive_sha256: null, failure_reason: null,
    });
    return id;
  };
  /** The stored archive's bytes. */
  const archiveBytes = async (workspace: PortabilityStores, id: string): Promise<Buffer> => {
    const stored = await workspace.archives.read(archiveKeys.export(id));
    const parts: Uint8Array[] = [];
    for await (const chunk of stored!.body) parts.push(chunk);
    return Buffer.concat(parts);
  };
  /** Every entry's name and text. */
  const entriesOf = async (bytes: Buffer) => {
    const entries: { name: string; text: string }[] = [];
    for await (const entry of tarGzipCodec.read((async function* () { yield bytes; })())) {
      const parts: Uint8Array[] = [];
      for await (const chunk of entry.body) parts.push(chunk);
      entries.push({ name: entry.name, text: Buffer.concat(parts).toString('utf8') });
    }
    return entries;
  };

  beforeAll(async () => {
    stores = await portabilityStores();
  });

  it("writes an archive the import's validation accepts, with the workspace's label, documents and files", async () => {
    // Arrange
    const { workspace } = await populated(2);
    const id = await queuedExport(workspace);

    // Act
    const outcome = await runExport(depsOf(workspace), id);

    // Assert
    expect(outcome).toBe('completed');
    const bytes = await archiveBytes(workspace, id);
    const { manifest } = await validateArchive(tarGzipCodec, (async function* () { yield bytes; })());
    expect(manifest).toMatchObject({ workspace: { id: workspace.workspaceId, name: 'Acme' }, counts: { labels: 1, users: 1, documents: 2, files: 2 } });
  });

  it('records the export completed, with the archive’s size, SHA-256 and every document done', async () => {
    // Arrange
    const { workspace } = await populated(3);
    const id = await queuedExport(workspace);

    // Act
    await runExport(depsOf(workspace), id);

    // Assert
    const bytes = await archiveBytes(workspace, id);
    expect(await workspace.portabilityJobs.getExport(id)).toMatchObject({
      state: 'completed',
      archive_key: archiveKeys.export(id),
      archive_size: bytes.byteLength,
      archive_sha256: createHash('sha256').update(bytes).digest('hex'),
      documents_total: 3,
      documents_done: 3,
    });
  });

  it('writes nothing of another workspace', async () => {
    // Arrange
    const { workspace, documentIds } = await populated(1);
    const other = await populated(2);
    const id = await queuedExport(workspace);

    // Act
    await runExport(depsOf(workspace), id);

    // Assert
    const entries = await entriesOf(await archiveBytes(workspace, id));
    const text = entries.map((entry) => `${entry.name}\n${entry.text}`).join('\n');
    expect(entries.filter((entry) => entry.name.startsWith('files/')).map((entry) => entry.name)).toEqual([`files/${documentIds[0]}/original`]);
    expect(text).not.toContain(other.workspace.workspaceId);
    for (const document of other.documentIds) expect(text).not.toContain(document);
  });

  it("leaves every secret out: members' password hashes, a source's sealed password, webhooks' signing secrets", async () => {
    // Arrange
    const { workspace } = await populated(0);
    await workspace.sources.create(aSourceRecord({ password_sealed: SOURCE_PASSWORD }));
    const at = '2026-11-01T00:00:00.000Z';
    await workspace.webhooks.create(
      {
        id: crypto.randomUUID(), workspace_id: workspace.workspaceId, url: 'https://example.com/hook', events: ['document.uploaded'], description: null, active: true,
        disabled_reason: null, failing_since: null, secrets: [{ sealed: WEBHOOK_SECRET, created_at: at, expires_at: null }], created_by: 'u', created_at: at, updated_at: at,
      },
      10,
    );
    const id = await queuedExport(workspace);

    // Act
    await runExport(depsOf(workspace), id);

    // Assert
    const entries = await entriesOf(await archiveBytes(workspace, id));
    const text = entries.map((entry) => entry.text).join('\n');
    expect(entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(['sources/000001.jsonl', 'webhooks/000001.jsonl', 'users/000001.jsonl']));
    expect(text).not.toContain(PASSWORD_HASH);
    expect(text).not.toContain(SOURCE_PASSWORD);
    expect(text).not.toContain(WEBHOOK_SECRET);
  });

  it("fails with missing_file when a document's file is not in storage, and keeps no partial archive", async () => {
    // Arrange
    const { workspace } = await populated(1);
    await workspace.documents.create(aDocumentRecord({ status: 'completed' }));
    const id = await queuedExport(workspace);

    // Act
    const outcome = await runExport(depsOf(workspace), id);

    // Assert
    expect(outcome).toBe('failed');
    expect((await workspace.portabilityJobs.getExport(id))?.failure_reason).toMatch(/^missing_file: /);
    expect(await workspace.archives.size(archiveKeys.export(id))).toBeNull();
  });

  it('reports an unexpected failure as internal_error, logging its cause but not showing it', async () => {
    // Arrange: the label store fails mid-export.
    const { workspace } = await populated(1);
    const id = await queuedExport(workspace);
    const failing = { ...depsOf(workspace), labels: { list: () => Promise.reject(new Error('connection reset by table-7')) } };

    // Act
    const outcome = await runExport(failing, id);

    // Assert
    expect(outcome).toBe('failed');
    expect((await workspace.portabilityJobs.getExport(id))?.failure_reason).toBe('internal_error: the export could not be written');
    expect(logged.at(-1)).toMatchObject({ fields: { export_id: id, error: expect.objectContaining({ message: 'connection reset by table-7' }) } });
  });

  it('skips an export that has completed already, writing nothing again', async () => {
    // Arrange
    const { workspace } = await populated(1);
    const id = await queuedExport(workspace);
    await runExport(depsOf(workspace), id);
    const first = await workspace.portabilityJobs.getExport(id);

    // Act
    const outcome = await runExport(depsOf(workspace), id);

    // Assert
    expect(outcome).toBe('skipped');
    expect(await workspace.portabilityJobs.getExport(id)).toEqual(first);
  });

  it('skips an export that does not exist', async () => {
    // Arrange
    const workspace = stores.inWorkspace();

    // Act
    const outcome = await runExport(depsOf(workspace), crypto.randomUUID());

    // Assert
    expect(outcome).toBe('skipped');
  });
});
