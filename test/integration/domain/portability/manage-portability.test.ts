import { beforeAll, describe, expect, it } from 'vitest';
import {
  createImport,
  getExport,
  getImport,
  refusePortabilityJob,
  startExport,
  startImport,
} from '../../../../shared/domain/portability/manage-portability';
import { archiveKeys, type ExportJob } from '../../../../shared/domain/portability/jobs';
import type { PortabilityMessage } from '../../../../shared/domain/portability/ports';
import type { Principal } from '../../../../shared/domain/principal';
import { ManualClock } from '../../../support/builders';
import { takeQueued } from '../../../support/queued-messages';
import { aLabel, portabilityStores, type PortabilityStores } from './portability-stores';

const NOW = new Date('2026-11-29T10:00:00.000Z');
const adminOf = (workspaceId: string): Principal => ({
  userId: crypto.randomUUID(),
  username: 'admin',
  email: 'admin@example.com',
  role: 'admin',
  workspaceId,
  jti: crypto.randomUUID(),
  tokenExpiresAt: new Date(NOW.getTime() + 3600_000),
});
const bytesOf = (text: string) => new TextEncoder().encode(text);
const chunks = async function* (bytes: Uint8Array) {
  yield bytes;
};
const refusalOf = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

/** The export and import routes' use cases over DynamoDB Local, the S3 emulator (presigned links) and the SQS emulator. */
describe('managing exports and imports', () => {
  let stores: Awaited<ReturnType<typeof portabilityStores>>;
  const queued = () => takeQueued<PortabilityMessage>(stores.sqs, stores.queueUrl);

  /** An export of the workspace, stored as `changes` say. */
  const anExport = async (workspace: PortabilityStores, changes: Partial<ExportJob> = {}) => {
    const view = await startExport(workspace, adminOf(workspace.workspaceId));
    await queued();
    await workspace.portabilityJobs.updateExport(view.id, changes);
    return view.id;
  };
  /** An import announced into a new, empty workspace, with the archive of `archive` bytes uploaded (none when null). */
  const anImport = async (announced: number, uploaded: string | null) => {
    const workspace = stores.inWorkspace();
    const grant = await createImport(workspace, adminOf(workspace.workspaceId), announced);
    if (uploaded !== null) await workspace.archives.write(archiveKeys.import(grant.id), chunks(bytesOf(uploaded)), 'application/gzip');
    return { workspace, id: grant.id };
  };

  beforeAll(async () => {
    stores = await portabilityStores(new ManualClock(NOW));
  });

  describe('startExport', () => {
    it("stores a queued export of the caller's workspace and hands it to the worker", async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const admin = adminOf(workspace.workspaceId);

      // Act
      const view = await startExport(workspace, admin);

      // Assert
      expect(view).toMatchObject({ status: 'queued', progress: { percent: 0, documents_done: 0 }, created_at: NOW.toISOString(), download_url: null });
      expect(await workspace.portabilityJobs.getExport(view.id)).toMatchObject({ state: 'queued', created_by: admin.userId });
      expect(await queued()).toEqual([{ kind: 'export', workspace_id: workspace.workspaceId, job_id: view.id }]);
    });
  });

  describe('getExport', () => {
    it('answers a completed export with a download link that serves its archive for an hour', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const id = await anExport(workspace);
      const key = archiveKeys.export(id);
      const stored = await workspace.archives.write(key, chunks(bytesOf('archive bytes')), 'application/gzip');
      await workspace.portabilityJobs.updateExport(id, { state: 'completed', archive_key: key, archive_size: stored.size, archive_sha256: stored.sha256, documents_done: 2, documents_total: 2 });

      // Act
      const view = await getExport(workspace, id);

      // Assert
      expect(view).toMatchObject({ status: 'completed', progress: { percent: 100 }, size: stored.size, sha256: stored.sha256, download_expires_at: '2026-11-29T11:00:00.000Z' });
      const download = await fetch(view.download_url!);
      expect(await download.text()).toBe('archive bytes');
    });

    it('reports a running export below 100 percent, even with every document written', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const [partly, allWritten] = [
        await anExport(workspace, { state: 'running', documents_done: 3, documents_total: 4 }),
        await anExport(workspace, { state: 'running', documents_done: 4, documents_total: 4 }),
      ];

      // Act
      const views = [await getExport(workspace, partly), await getExport(workspace, allWritten)];

      // Assert
      expect(views.map((view) => [view.progress.percent, view.download_url])).toEqual([
        [75, null],
        [99, null],
      ]);
    });

    it("answers NOT_FOUND for another workspace's export", async () => {
      // Arrange
      const owner = stores.inWorkspace();
      const id = await anExport(owner);

      // Act
      const refused = await refusalOf(getExport(stores.inWorkspace(), id));

      // Assert
      expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Export', id } });
    });
  });

  describe('createImport', () => {
    it('grants an empty workspace a PUT of exactly the announced size, the import awaiting its archive', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const archive = bytesOf('an archive of 27 bytes long');

      // Act
      const grant = await createImport(workspace, adminOf(workspace.workspaceId), archive.byteLength);

      // Assert
      expect(grant).toMatchObject({ status: 'awaiting_archive', method: 'PUT', expires_at: '2026-11-29T11:00:00.000Z' });
      const put = await fetch(grant.upload_url, { method: 'PUT', body: archive });
      expect(put.status).toBe(200);
      expect(await workspace.archives.size(archiveKeys.import(grant.id))).toBe(archive.byteLength);
    });

    it('refuses a workspace holding content with 409 workspace_not_empty, storing no import', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      await workspace.labels.create(aLabel());

      // Act
      const refused = await refusalOf(createImport(workspace, adminOf(workspace.workspaceId), 100));

      // Assert
      expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', status: 409, details: { reason: 'workspace_not_empty' } });
    });
  });

  describe('startImport', () => {
    it('queues an import whose archive was uploaded and answers it queued', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, '0123456789');

      // Act
      const view = await startImport(workspace, id);

      // Assert
      expect(view).toMatchObject({ id, status: 'queued' });
      expect((await workspace.portabilityJobs.getImport(id))?.state).toBe('queued');
      expect(await queued()).toEqual([{ kind: 'import', workspace_id: workspace.workspaceId, job_id: id }]);
    });

    it('refuses to start before the archive is uploaded, naming the archive', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, null);

      // Act
      const refused = await refusalOf(startImport(workspace, id));

      // Assert
      expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'archive', reason: 'not uploaded' } });
      expect((await workspace.portabilityJobs.getImport(id))?.state).toBe('awaiting_archive');
    });

    it('refuses an archive of another size than announced', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, 'short');

      // Act
      const refused = await refusalOf(startImport(workspace, id));

      // Assert
      expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'archive', reason: 'size differs from the announced size' } });
    });

    it('refuses to start an import a second time with 409 import_started, queueing it once', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, '0123456789');
      await startImport(workspace, id);
      await queued();

      // Act
      const refused = await refusalOf(startImport(workspace, id));

      // Assert
      expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'import_started', status: 'queued' } });
      expect(await queued()).toEqual([]);
    });

    it('refuses an import whose workspace got content after it was announced', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, '0123456789');
      await workspace.labels.create(aLabel());

      // Act
      const refused = await refusalOf(startImport(workspace, id));

      // Assert
      expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'workspace_not_empty' } });
      expect((await workspace.portabilityJobs.getImport(id))?.state).toBe('awaiting_archive');
    });
  });

  describe('getImport', () => {
    it('answers the import with its progress', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, '0123456789');
      await workspace.portabilityJobs.updateImport(id, { state: 'importing', documents_done: 1, documents_total: 3 });

      // Act
      const view = await getImport(workspace, id);

      // Assert
      expect(view).toMatchObject({ id, status: 'importing', progress: { percent: 33, documents_done: 1, documents_total: 3 }, result: null });
    });

    it("answers NOT_FOUND for another workspace's import", async () => {
      // Arrange
      const { id } = await anImport(10, null);

      // Act
      const refused = await refusalOf(getImport(stores.inWorkspace(), id));

      // Assert
      expect(refused).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'Import', id } });
    });
  });

  describe('refusePortabilityJob', () => {
    it('ends a queued export failed, with the reason and when', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const id = await anExport(workspace);

      // Act
      await refusePortabilityJob(workspace, 'export', id, 'workspace_suspended: the workspace is suspended');

      // Assert
      expect(await workspace.portabilityJobs.getExport(id)).toMatchObject({
        state: 'failed',
        failure_reason: 'workspace_suspended: the workspace is suspended',
        finished_at: NOW.toISOString(),
      });
    });

    it('ends an import being written failed', async () => {
      // Arrange
      const { workspace, id } = await anImport(10, '0123456789');
      await workspace.portabilityJobs.updateImport(id, { state: 'importing' });

      // Act
      await refusePortabilityJob(workspace, 'import', id, 'workspace_suspended: the workspace is suspended');

      // Assert
      expect((await workspace.portabilityJobs.getImport(id))?.state).toBe('failed');
    });

    it('leaves an export that completed as it was', async () => {
      // Arrange
      const workspace = stores.inWorkspace();
      const id = await anExport(workspace, { state: 'completed' });

      // Act
      await refusePortabilityJob(workspace, 'export', id, 'workspace_suspended: the workspace is suspended');

      // Assert
      expect(await workspace.portabilityJobs.getExport(id)).toMatchObject({ state: 'completed', failure_reason: null });
    });
  });
});
