import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeys } from '../../../../shared/domain/files/file-keys';
import { listNotifications } from '../../../../shared/domain/notifications/list-notifications';
import { createSource } from '../../../../shared/domain/sources/create-source';
import { GAVE_UP, MAX_STEP_ATTEMPTS, runSyncStep } from '../../../../shared/domain/sources/run-sync-step';
import { scheduleSyncs } from '../../../../shared/domain/sources/schedule-syncs';
import { syncStatus } from '../../../../shared/domain/sources/sync-status';
import { minimalPdf } from '../../../support/minimal-files';
import { aNewSource, davFolders, sourceWorld, type SourceWorld } from './source-world';

/** A one-page PDF whose bytes differ by `tag`. */
const pdf = (tag: string) => Buffer.from(minimalPdf(1, ` /Tag (${tag})`));

const EDITOR = 'editor-who-created-it';

/**
 * One step of a sync, against a real WebDAV server (rclone), with the stores on DynamoDB Local, the files in the
 * S3 emulator and the queues on the SQS emulator.
 */
describe('runSyncStep', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  let world: SourceWorld;

  beforeAll(async () => {
    served = await davFolders();
    world = await sourceWorld();
  });

  afterAll(async () => {
    await served?.stop();
  });

  /** A source on a folder of `files`, created as the API does (its first sync queued), and its sync's steps. */
  async function syncingSource(files: Record<string, string | Buffer> = {}, on: SourceWorld = world) {
    const deps = on.inWorkspace();
    const { url, path } = await served.folder(files);
    const source = await createSource(deps, aNewSource(url, { createdBy: EDITOR }));
    const jobId = (await deps.sources.get(source.id))!.current_job_id!;
    /** A worker takes the step and is gone (crashed or timed out); a restart takes its lease over. */
    const workerVanishes = async () => {
      const leased = await deps.sources.leaseJob(source.id, jobId, new Date(Date.now() + 900_000).toISOString(), new Date().toISOString());
      expect(leased).not.toBeNull();
      await deps.sources.releaseJob(source.id, jobId);
    };
    const message = { workspace_id: deps.workspaceId, source_id: source.id, job_id: jobId };
    const step = (stepSeconds = 60) => runSyncStep({ ...deps, stepSeconds }, message);
    const vanishTimes = async (times: number) => {
      for (let i = 0; i < times; i++) await workerVanishes();
    };
    return { deps, path, message, sourceId: source.id, jobId, vanishTimes, step };
  }

  it("brings the folder's files in as documents of the source and finishes the sync, counting them", async () => {
    // Arrange
    const { deps, sourceId, step } = await syncingSource({ 'a.pdf': pdf('a'), 'notes/b.pdf': pdf('b') });

    // Act
    const outcome = await step();

    // Assert
    expect(outcome).toBe('finished');
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'completed', new: 2, failed: 0, processed: 2, total: 2 });
    expect((await deps.sources.documentCounts([sourceId])).get(sourceId)).toBe(2);
    expect(await deps.sources.get(sourceId)).toMatchObject({ current_job_id: null, error: null });
  });

  it('stores each file under its document and queues its OCR', async () => {
    // Arrange
    const { deps, step } = await syncingSource({ 'scan.pdf': pdf('scan') });
    await world.ocrMessages(deps.workspaceId);

    // Act
    await step();

    // Assert
    const [message] = await world.ocrMessages(deps.workspaceId);
    const document = (await deps.documents.get(message!.document_id))!;
    expect(document).toMatchObject({ filename: 'scan.pdf', mime_type: 'application/pdf', created_by: EDITOR });
    expect(Buffer.from((await deps.files.get(fileKeys.original(document.id)))!)).toEqual(pdf('scan'));
  });

  it('tells the editor who started the sync what it did', async () => {
    // Arrange
    const { deps, sourceId, jobId, step } = await syncingSource({ 'a.pdf': pdf('told') });

    // Act
    await step();

    // Assert
    const [notification] = (await listNotifications(deps, EDITOR, true)).notifications.filter((n) => 'source_id' in n.data && n.data.source_id === sourceId);
    expect(notification).toMatchObject({ type: 'source_sync_completed', message: '1 new, 0 changed, 0 unchanged, 0 duplicates, 0 skipped, 0 failed', data: { job_id: jobId } });
  });

  it('does nothing for a second worker given the same message while the first holds the lease', async () => {
    // Arrange
    const { deps, sourceId, jobId, step } = await syncingSource({ 'a.pdf': pdf('leased') });
    await deps.sources.leaseJob(sourceId, jobId, new Date(Date.now() + 900_000).toISOString(), new Date().toISOString());

    // Act
    const outcome = await step();

    // Assert
    expect(outcome).toBe('skipped');
    expect((await deps.sources.documentCounts([sourceId])).get(sourceId)).toBe(0);
  });

  it('fails the sync, saying why, when its root can no longer be listed', async () => {
    // Arrange
    const { deps, sourceId, path, step } = await syncingSource();
    await rm(path, { recursive: true });

    // Act
    const outcome = await step();

    // Assert
    expect(outcome).toBe('finished');
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'failed', failure: 'url: does not exist on the server (404)' });
    expect(await deps.sources.get(sourceId)).toMatchObject({ error: 'url: does not exist on the server (404)', current_job_id: null });
  });

  it('does nothing while the workspace does not serve, leaving the sync to wait', async () => {
    // Arrange
    const { deps, message, sourceId } = await syncingSource({ 'a.pdf': pdf('suspended') });

    // Act
    const outcome = await runSyncStep({ ...deps, serves: async () => false }, message);

    // Assert
    expect(outcome).toBe('skipped');
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'queued' });
  });

  it('hands the rest of the sync to a new step when its time is up', async () => {
    // Arrange
    const { message, step } = await syncingSource({ 'a.pdf': pdf('later') });
    await world.syncMessages();

    // Act
    const outcome = await step(0);

    // Assert
    expect(outcome).toBe('continued');
    expect(await world.syncMessages()).toEqual([message]);
  });

  it(`ends as failed, saying why, a sync whose step started ${MAX_STEP_ATTEMPTS} times without progress, at its next start`, async () => {
    // Arrange
    const { deps, sourceId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS);

    // Act
    const outcome = await step();

    // Assert
    expect(outcome).toBe('finished');
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'failed', failure: GAVE_UP, finished_at: expect.any(String) });
    expect(await deps.sources.get(sourceId)).toMatchObject({ current_job_id: null, error: GAVE_UP });
  });

  it('does not read the folder of a sync it gives up', async () => {
    // Arrange
    const { vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS);
    const requestsBefore = (await served.dav.requestLog()).length;

    // Act
    await step();

    // Assert
    expect((await served.dav.requestLog()).length).toBe(requestsBefore);
  });

  it('tells the editor who started the sync that it failed', async () => {
    // Arrange
    const { deps, sourceId, jobId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS);

    // Act
    await step();

    // Assert
    const [notification] = (await listNotifications(deps, EDITOR, true)).notifications.filter((n) => 'source_id' in n.data && n.data.source_id === sourceId);
    expect(notification).toMatchObject({ type: 'source_sync_failed', message: GAVE_UP, data: { source_id: sourceId, job_id: jobId } });
  });

  it('leaves nothing of a sync it gave up for a restart to resume', async () => {
    // Arrange
    // A table of its own: the other tests' unfinished syncs would be resumed too.
    const alone = await sourceWorld();
    const { vanishTimes, step } = await syncingSource({}, alone);
    await vanishTimes(MAX_STEP_ATTEMPTS);
    await step();

    // Act: a local start, which resumes every unfinished sync.
    const outcome = await scheduleSyncs(
      { schedule: alone.schedule, syncQueue: alone.syncQueue, clock: alone.clock, inWorkspace: (workspaceId) => alone.inWorkspace(workspaceId) },
      { stalledAfterSeconds: 900, takeOverLeases: true },
    );

    // Assert
    expect(outcome.resumed).toBe(0);
  });

  it(`runs a sync whose step started ${MAX_STEP_ATTEMPTS - 1} times without progress`, async () => {
    // Arrange
    const { deps, sourceId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS - 1);

    // Act
    const outcome = await step();

    // Assert
    expect(outcome).toBe('finished');
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'completed', failure: null });
  });

  it('counts the starts from zero again after a step that handed the rest of the sync on', async () => {
    // Arrange: a step with no time to work hands the sync on at once, as one out of time does.
    const { deps, sourceId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS - 1);
    expect(await step(0)).toBe('continued');
    await vanishTimes(MAX_STEP_ATTEMPTS - 1);

    // Act
    await step();

    // Assert
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'completed', failure: null });
  });

  it('counts the starts from zero again after a step whose worker vanished having made progress', async () => {
    // Arrange
    const { deps, sourceId, jobId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS - 1);
    await deps.sources.leaseJob(sourceId, jobId, new Date(Date.now() + 900_000).toISOString(), new Date().toISOString());
    await deps.sources.recordProgress(sourceId, jobId, { counts: { unchanged: 1 }, currentFile: 'a.pdf' });
    await deps.sources.releaseJob(sourceId, jobId);
    await vanishTimes(MAX_STEP_ATTEMPTS - 1);

    // Act
    await step();

    // Assert
    expect(await syncStatus(deps, sourceId)).toMatchObject({ state: 'completed', failure: null });
  });
});
