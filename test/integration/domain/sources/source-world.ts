import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoNotificationRepository } from '../../../../shared/adapters/aws/dynamodb/notification-repository';
import { DynamoQuotaCounts } from '../../../../shared/adapters/aws/dynamodb/quota-counts';
import { DynamoSourceRepository } from '../../../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../../../../shared/adapters/aws/dynamodb/source-schedule';
import { DynamoSyncStateStore } from '../../../../shared/adapters/aws/dynamodb/sync-state-store';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsSyncQueue } from '../../../../shared/adapters/aws/sqs/sync-queue';
import { AesGcmCredentialVault } from '../../../../shared/adapters/crypto/aes-gcm-credential-vault';
import { WebDavFolders } from '../../../../shared/adapters/webdav/webdav-client';
import { UNLIMITED_CATALOG, type PlanCatalog } from '../../../../shared/domain/quotas/plans';
import type { SyncStepMessage } from '../../../../shared/domain/sources/ports';
import type { NewSource } from '../../../../shared/domain/sources/create-source';
import type { SourceRecord } from '../../../../shared/domain/sources/source';
import { testClients, uniqueName } from '../../../support/aws-resources';
import { aSourceRecord, ManualClock } from '../../../support/builders';
import { startRcloneDav, type RunningDav } from '../../../support/webdav-servers';
import { domainStores } from '../workspace-stores';

/** The WebDAV account every served folder is read with. */
export const DAV_USER = { username: 'sync', password: 'sync-password' };

/** A WebDAV server (rclone) on loopback over a temporary root, and a way to lay out a folder of its own per test. */
export async function davFolders(): Promise<{ dav: RunningDav; folder: (files?: Record<string, string | Buffer>) => Promise<{ url: string; path: string }>; stop: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'domain-sources-'));
  const dav = await startRcloneDav({ root, ...DAV_USER });
  return {
    dav,
    folder: async (files = {}) => {
      const name = crypto.randomUUID();
      const path = join(root, name);
      await mkdir(path, { recursive: true });
      for (const [file, content] of Object.entries(files)) {
        await mkdir(dirname(join(path, file)), { recursive: true });
        await writeFile(join(path, file), content);
      }
      return { url: `${dav.url}${name}/`, path };
    },
    stop: async () => {
      await dav.stop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/**
 * The sources' use cases' deps built from their adapters: the workspace stores of ../workspace-stores.ts (a
 * fresh DynamoDB Local table, the S3 emulator's bucket, the OCR queues), the source and sync-state stores, an
 * AES-GCM vault, the WebDAV client (loopback allowed), a sync queue of its own on the SQS emulator, quota counts
 * and notifications; a clock the test moves. `inWorkspace()` gives one workspace's (a fresh one unless named).
 */
export async function sourceWorld(options: { plans?: PlanCatalog } = {}) {
  const clock = new ManualClock(new Date());
  const base = await domainStores({ clock });
  const { sqs } = testClients();
  const { queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('sync'), { visibilityTimeoutSeconds: 30 });
  const syncQueue = new SqsSyncQueue(sqs, queueUrl);
  const vault = new AesGcmCredentialVault(randomBytes(32));
  const remoteFolders = new WebDavFolders({ allowPrivateNetworks: true, requestTimeoutMs: 10_000 });
  const notifications = new DynamoNotificationRepository(base.db, base.tableName);
  const quotaCounts = new DynamoQuotaCounts(base.db, base.tableName);
  const plans = options.plans ?? UNLIMITED_CATALOG;
  const inWorkspace = (workspaceId: string = crypto.randomUUID()) => ({
    ...base.inWorkspace(workspaceId),
    sources: new DynamoSourceRepository(base.db, base.tableName, workspaceId),
    syncState: new DynamoSyncStateStore(base.db, base.tableName, workspaceId),
    vault,
    remoteFolders,
    syncQueue,
    notifications,
    quotaCounts,
    plans,
    workspaceStatus: { plan: async () => null },
    clock,
    stepSeconds: 60,
  });
  /** The sync steps queued since last asked (each received and deleted). */
  const syncMessages = async (): Promise<SyncStepMessage[]> => {
    const received: SyncStepMessage[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      if (!Messages.length) return received;
      for (const message of Messages) {
        received.push(JSON.parse(message.Body!) as SyncStepMessage);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
  };
  return { ...base, clock, sqs, syncQueue, vault, remoteFolders, notifications, schedule: new DynamoSourceSchedule(base.db, base.tableName), inWorkspace, syncMessages };
}

export type SourceWorld = Awaited<ReturnType<typeof sourceWorld>>;
export type SourceStores = ReturnType<SourceWorld['inWorkspace']>;

/** A new WebDAV source of `url` read with the served account, synced hourly, every file; override what the test is about. */
export const aNewSource = (url: string, overrides: Partial<NewSource> = {}): NewSource => ({
  name: 'Scans',
  type: 'webdav',
  url,
  ...DAV_USER,
  syncInterval: 3600,
  recursive: true,
  filePatterns: [],
  enabled: true,
  createdBy: 'editor-id',
  ...overrides,
});

/** A source stored as a finished sync left it (idle, synced an hour ago), its password sealed for it; override what the test is about. */
export async function storedSource(deps: SourceStores, url: string, overrides: Partial<SourceRecord> = {}): Promise<SourceRecord> {
  const id = overrides.id ?? crypto.randomUUID();
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - 3_600_000).toISOString();
  const source = aSourceRecord({
    id,
    url,
    username: DAV_USER.username,
    password_sealed: await deps.vault.seal(DAV_USER.password, { workspaceId: deps.workspaceId, sourceId: id }),
    last_sync: hourAgo,
    last_full_walk: hourAgo,
    next_sync: now.toISOString(),
    created_at: hourAgo,
    updated_at: hourAgo,
    ...overrides,
  });
  await deps.sources.create(source);
  return source;
}
