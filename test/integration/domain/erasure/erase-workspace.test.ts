import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3FileStore } from '../../../../shared/adapters/aws/s3/file-store';
import { S3WorkspaceEraser } from '../../../../shared/adapters/aws/s3/workspace-eraser';
import { ensureBucket } from '../../../../shared/adapters/aws/provisioning';
import { dataKeys } from '../../../../shared/adapters/aws/dynamodb/keys';
import { SqliteSearchIndex } from '../../../../shared/adapters/local/sqlite-search-index';
import { DynamoErasureRepository } from '../../../../shared/adapters/aws/dynamodb/erasure-repository';
import { DynamoNotificationRepository } from '../../../../shared/adapters/aws/dynamodb/notification-repository';
import type { ConnectionSender } from '../../../../shared/domain/connections/ports';
import { workspaceFileStore } from '../../../../shared/domain/documents/bucket-layout';
import type { FileStore } from '../../../../shared/domain/files/ports';
import { eraserDepsOf } from '../../../../shared/container/kit/eraser';
import { eraseWorkspace, type EraseWorkspaceDeps } from '../../../../shared/domain/erasure/erase-workspace';
import { deleteOwnWorkspace } from '../../../../shared/domain/erasure/request-erasure';
import type { Principal } from '../../../../shared/domain/principal';
import { registerUser } from '../../../../shared/domain/users/register';
import { aDocumentRecord, aSourceRecord } from '../../../support/builders';
import { testClients, uniqueName } from '../../../support/aws-resources';
import { testKit, type TestKit } from '../../../support/test-kit';

/** A word only one workspace's documents hold, to find in the index file. */
const SECRET_WORD = (tag: string) => `zebraword${tag}`;

/**
 * A workspace's erasure on DynamoDB Local, the S3 emulator and a SQLite index file: afterwards a scan of the
 * table, a listing of the bucket and a read of every table of the index file find nothing of it (but its usage
 * rows, its deletion record and its workspace record marked deleting), and the other workspace is as it was.
 */
/** No WebSocket is open in these tests: nothing is ever sent or closed. */
const noSockets: ConnectionSender = {
  send: () => Promise.reject(new Error('no WebSocket is open in this test')),
  close: () => Promise.reject(new Error('no WebSocket is open in this test')),
};

/** The kit's stores an erasure reads and writes, and what requesting one takes. */
async function erasureKit(bucket: FileStore, index: SqliteSearchIndex) {
  const kit = await testKit();
  return {
    ...kit,
    ...kit.gate,
    registrationMode: kit.env.REGISTRATION_MODE,
    notifications: new DynamoNotificationRepository(kit.db, kit.tableName),
    erasures: new DynamoErasureRepository(kit.db, kit.tableName),
    erasureQueue: { enqueue: async () => undefined },
    forWorkspace: (workspaceId: string) => ({
      ...kit.stores('documents', 'labels', 'sources')(workspaceId),
      files: workspaceFileStore(bucket, workspaceId),
      searchIndex: index.forWorkspace(workspaceId),
    }),
  };
}

describe('erasing a workspace', () => {
  let c: Awaited<ReturnType<typeof erasureKit>>;
  let db: TestKit['db'];
  let tableName: string;
  let bucket: string;
  let dir: string;
  let index: SqliteSearchIndex;
  let deps: EraseWorkspaceDeps;
  const s3 = testClients().s3;

  beforeAll(async () => {
    bucket = uniqueName('erasure');
    await ensureBucket(s3, bucket);
    dir = mkdtempSync(join(tmpdir(), 'erasure-'));
    index = new SqliteSearchIndex(join(dir, 'index.sqlite'), { readers: 0 });
    c = await erasureKit(new S3FileStore(s3, bucket), index);
    ({ db, tableName } = c);
    deps = eraserDepsOf({ ...c, connectionSender: noSockets }, { db, tableName, objects: new S3WorkspaceEraser(s3, bucket, false), index: { erase: async (id) => index.eraseWorkspace(id) } });
  });

  afterAll(() => {
    index.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A registered workspace with documents, files, a label, a token, settings, a source, items of every kind and index entries. */
  async function populatedWorkspace(tag: string): Promise<{ admin: Principal; workspaceId: string; name: string; userId: string }> {
    const user = await registerUser(c, { username: `${tag}_${crypto.randomUUID().slice(0, 8)}`, email: `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'correct horse battery' });
    const workspaceId = user.workspace_id;
    const w = c.forWorkspace(workspaceId);
    const now = new Date().toISOString();
    await c.settings.update(user.id, { theme: 'dark' } as never, now);
    await c.apiTokens.create(
      { id: crypto.randomUUID(), hash: crypto.randomUUID().replaceAll('-', ''), user_id: user.id, workspace_id: workspaceId, name: 't', prefix: 'dst_abcd', scopes: ['read'], created_at: now, last_used_at: null, expires_at: '2099-01-01T00:00:00Z' },
      10,
    );
    await c.notifications.create({ userId: user.id, workspaceId }, { id: crypto.randomUUID(), type: 'ocr_completed', title: 't', message: 'm', read: false, created_at: now, data: { document_id: crypto.randomUUID() } });
    await w.labels.create({ id: crypto.randomUUID(), name: `label-${tag}`, color: '#112233', document_count: 0, created_at: now } as never);
    await w.sources.create(aSourceRecord() as never);
    const keys = dataKeys(workspaceId);
    for (const item of [
      { ...keys.webhook(crypto.randomUUID()), url: 'https://example.com/hook' },
      { ...keys.rule(crypto.randomUUID()), name: 'rule' },
      { pk: keys.sourceDirectory(crypto.randomUUID(), '/a/b'), sk: '.', etag: 'x' },
      { pk: keys.syncWork(crypto.randomUUID()), sk: 'F#/x.pdf' },
      { ...keys.usageMonth(now.slice(0, 7)), api_requests: 3 },
    ]) {
      await db.send(new PutCommand({ TableName: tableName, Item: item }));
    }
    for (let i = 0; i < 3; i++) {
      const document = aDocumentRecord({ title: `${SECRET_WORD(tag)} ${i}`, created_by: user.id });
      await w.documents.create(document);
      await w.files.put(`documents/${document.id}/original`, new TextEncoder().encode(`file ${i}`), 'application/pdf');
      await w.searchIndex.upsert({ ...document, version: 1, content: `${SECRET_WORD(tag)} content`, labels: [], metadata: {}, ocr_confidence: null });
    }
    await w.files.put(`uploads/${crypto.randomUUID()}`, new TextEncoder().encode('staged'), 'application/pdf');
    const admin = { userId: user.id, username: user.username, email: user.email, role: 'admin', workspaceId, jti: 'j', tokenExpiresAt: new Date() } as Principal;
    return { admin, workspaceId, name: (await c.workspaces.findById(workspaceId))!.name, userId: user.id };
  }

  async function tableItems(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: cursor }));
      items.push(...(page.Items ?? []));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return items;
  }

  const objectKeys = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((object) => object.Key!);

  /**
   * Every value of every row of every stored table of the index file (the full-text tables' shadow tables
   * included; their virtual tables are views of those), as text, and the file's bytes beside it.
   */
  function indexFileText(): string {
    const raw = new Database(join(dir, 'index.sqlite'), { readonly: true });
    try {
      const tables = raw.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'").all();
      return tables.map(({ name }) => JSON.stringify(raw.prepare(`SELECT * FROM "${name}"`).raw().all(), (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v))).join('\n');
    } finally {
      raw.close();
    }
  }

  it('leaves no item, object or index entry of the workspace, and the other workspace as it was', async () => {
    const gone = await populatedWorkspace('gone');
    const kept = await populatedWorkspace('kept');
    const keptItemsBefore = (await tableItems()).filter((item) => JSON.stringify(item).includes(kept.workspaceId) || JSON.stringify(item).includes(kept.userId));
    const keptObjectsBefore = (await objectKeys()).filter((key) => key.includes(kept.workspaceId));

    await deleteOwnWorkspace(c, gone.admin, gone.name);
    expect(await eraseWorkspace(deps, gone.workspaceId)).toBe('completed');

    const left = (await tableItems()).filter((item) => JSON.stringify(item).includes(gone.workspaceId) || JSON.stringify(item).includes(gone.userId));
    const usageRow = (item: Record<string, unknown>) => String(item['pk']).startsWith(`WS#${gone.workspaceId}#USAGE`);
    expect(left.filter((item) => !usageRow(item)).map((item) => `${String(item['pk'])} ${String(item['sk'])}`).sort()).toEqual(
      [`ERASURE#${gone.workspaceId} RECORD`, `WORKSPACE#${gone.workspaceId} META`].sort(),
    );
    expect(left.filter(usageRow).length).toBeGreaterThan(0);
    expect((await objectKeys()).filter((key) => key.includes(gone.workspaceId))).toEqual([]);
    const indexText = indexFileText();
    const indexBytes = ['index.sqlite', 'index.sqlite-wal'].map((file) => (existsSync(join(dir, file)) ? readFileSync(join(dir, file)).toString('latin1') : '')).join('');
    expect(indexBytes).not.toContain(gone.workspaceId);
    expect(indexBytes).not.toContain(SECRET_WORD('gone'));
    expect(indexText).not.toContain(gone.workspaceId);
    expect(indexText).not.toContain(SECRET_WORD('gone'));
    const keptItemsAfter = (await tableItems()).filter((item) => JSON.stringify(item).includes(kept.workspaceId) || JSON.stringify(item).includes(kept.userId));
    expect(keptItemsAfter).toEqual(expect.arrayContaining(keptItemsBefore));
    expect(keptItemsAfter).toHaveLength(keptItemsBefore.length);
    expect((await objectKeys()).filter((key) => key.includes(kept.workspaceId)).sort()).toEqual(keptObjectsBefore.sort());
    expect(indexText).toContain(SECRET_WORD('kept'));
  });

  it('finishes an erasure cut short after some steps, from the first unfinished one', async () => {
    const gone = await populatedWorkspace('cut');
    await deleteOwnWorkspace(c, gone.admin, gone.name);
    const failing: EraseWorkspaceDeps = { ...deps, objects: { erase: () => Promise.reject(new Error('crash mid-erasure')) } };
    await expect(eraseWorkspace(failing, gone.workspaceId)).rejects.toThrow('crash mid-erasure');
    expect((await c.erasures.find(gone.workspaceId))?.steps_done).toEqual(['connections', 'automation', 'table']);

    expect(await eraseWorkspace(deps, gone.workspaceId)).toBe('completed');

    const erasure = await c.erasures.find(gone.workspaceId);
    expect(erasure).toMatchObject({ status: 'completed', steps_done: ['connections', 'automation', 'table', 'bucket', 'index', 'sweep', 'workspace'] });
    expect((await objectKeys()).filter((key) => key.includes(gone.workspaceId))).toEqual([]);
  });
});
