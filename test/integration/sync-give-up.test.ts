import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AesGcmCredentialVault } from '../../shared/adapters/crypto/aes-gcm-credential-vault';
import { ensureQueueWithDlq } from '../../shared/adapters/aws/provisioning';
import { SqsSyncQueue } from '../../shared/adapters/aws/sqs/sync-queue';
import { WebDavFolders } from '../../shared/adapters/webdav/webdav-client';
import { inWorkspace } from '../../shared/container/app-container';
import { dynamoSourceStores } from '../../shared/container/source-stores';
import { createSource } from '../../shared/domain/sources/create-source';
import { GAVE_UP, MAX_STEP_ATTEMPTS, runSyncStep } from '../../shared/domain/sources/run-sync-step';
import { scheduleSyncs } from '../../shared/domain/sources/schedule-syncs';
import { syncStatus } from '../../shared/domain/sources/sync-status';
import { testClients, uniqueName } from '../support/aws-resources';
import { testContainer } from '../support/test-container';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';

const EDITOR = 'editor-who-created-it';

/** The give-up rule of runSyncStep: a sync whose step keeps dying ends failed rather than resumed for ever. */
describe('a sync whose step keeps dying', () => {
  let root: string;
  let dav: RunningDav;

  beforeAll(async () => {
    // An empty folder: a step that runs finishes the sync at once.
    root = await mkdtemp(join(tmpdir(), 'sync-give-up-'));
    dav = await startRcloneDav({ root, username: 'sync', password: 'sync-password' });
  });

  afterAll(async () => {
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** A source on the WebDAV folder, created as the API does (its first sync queued), and its sync's steps. */
  async function syncingSource() {
    const { sqs } = testClients();
    const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('sync'), { visibilityTimeoutSeconds: 30 });
    const { c } = await testContainer({
      vault: new AesGcmCredentialVault(randomBytes(32)),
      syncQueue: new SqsSyncQueue(sqs, queueUrl),
      remoteFolders: (policy) => new WebDavFolders(policy),
      sourceStores: dynamoSourceStores,
      env: { SOURCES_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    const workspaceId = crypto.randomUUID();
    const deps = inWorkspace(c, { workspaceId });
    const source = await createSource(deps, {
      name: 'Dying',
      type: 'webdav',
      url: dav.url,
      username: dav.username,
      password: dav.password,
      syncInterval: 3600,
      recursive: true,
      filePatterns: [],
      enabled: true,
      createdBy: EDITOR,
    });
    const jobId = (await deps.sources.get(source.id))!.current_job_id!;
    /** A worker takes the step and is gone (crashed or timed out); a restart takes its lease over. */
    const workerVanishes = async () => {
      const leased = await deps.sources.leaseJob(source.id, jobId, new Date(Date.now() + 900_000).toISOString(), new Date().toISOString());
      expect(leased).not.toBeNull();
      await deps.sources.releaseJob(source.id, jobId);
    };
    const step = (stepSeconds = 60) => runSyncStep({ ...deps, stepSeconds }, { workspace_id: workspaceId, source_id: source.id, job_id: jobId });
    const vanishTimes = async (times: number) => {
      for (let i = 0; i < times; i++) await workerVanishes();
    };
    return { c, deps, sourceId: source.id, jobId, vanishTimes, step };
  }

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
    const requestsBefore = (await dav.requestLog()).length;

    // Act
    await step();

    // Assert
    expect((await dav.requestLog()).length).toBe(requestsBefore);
  });

  it('tells the editor who started the sync that it failed', async () => {
    // Arrange
    const { c, sourceId, jobId, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS);

    // Act
    await step();

    // Assert
    const [notification] = await c.notifications.list(EDITOR, { unreadOnly: true, limit: 10 });
    expect(notification).toMatchObject({ type: 'source_sync_failed', message: GAVE_UP, data: { source_id: sourceId, job_id: jobId } });
  });

  it('leaves nothing of a sync it gave up for a restart to resume', async () => {
    // Arrange
    const { c, vanishTimes, step } = await syncingSource();
    await vanishTimes(MAX_STEP_ATTEMPTS);
    await step();

    // Act: a local start, which resumes every unfinished sync.
    const outcome = await scheduleSyncs(
      { schedule: c.sourceSchedule, syncQueue: c.syncQueue, clock: c.clock, inWorkspace: (workspaceId) => inWorkspace(c, { workspaceId }) },
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
