import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStreamPoller, type StreamPoller } from '../../../../../shared/local/event-sources/dynamodb-stream-poller';
import { ensureTable } from '../../../../../shared/adapters/aws/provisioning';
import { withAuditTrail } from '../../../../../shared/adapters/aws/dynamodb/audit-records';
import { DynamoAuditLog } from '../../../../../shared/adapters/aws/dynamodb/audit-log';
import { runAsActor, type RequestActor } from '../../../../../shared/adapters/actor-context';
import { commonEnvSchema, parseEnv } from '../../../../../shared/container/kit/config';
import { workspaceDirectory } from '../../../../../shared/container/kit/accounts';
import { workspaceTableStores, type WorkspaceTableStores } from '../../../../../shared/container/kit/workspace-data';
import { systemClock } from '../../../../../shared/domain/clock';
import type { AuditEntry } from '../../../../../shared/domain/audit/audit';
import { aDocumentRecord } from '../../../../support/builders';
import { freshAppStreamTable } from '../../../../support/app-stream-table';
import { uniqueName } from '../../../../support/aws-resources';
import { until } from '../../../../support/until';

/**
 * The audit log derived from the table's stream: what a request writes is stamped with its actor by the DynamoDB
 * client, and the derivation (folded into the `events` consumer) turns the stream's records into entries.
 */
describe('audit trail from the change stream', () => {
  let c: { forWorkspace: (workspaceId: string) => Pick<WorkspaceTableStores, 'documents'> };
  let audit: DynamoAuditLog;
  let poller: StreamPoller;
  const workspaceId = crypto.randomUUID();
  const actor = (overrides: Partial<RequestActor> = {}): RequestActor => ({
    user_id: crypto.randomUUID(),
    token_id: null,
    workspace_id: workspaceId,
    ip: '203.0.113.7',
    user_agent: 'audit-test/1.0',
    request_id: crypto.randomUUID(),
    ...overrides,
  });

  beforeAll(async () => {
    const { db, streams, tableName, streamArn } = await freshAppStreamTable();
    const auditTable = uniqueName('audit');
    await ensureTable(db, auditTable);
    const table = { db, name: tableName };
    c = { forWorkspace: workspaceTableStores(table, systemClock, workspaceDirectory(table, parseEnv(commonEnvSchema, {}), systemClock))('documents') };
    audit = new DynamoAuditLog(db, auditTable);
    poller = startStreamPoller({
      streams,
      source: { streamArn },
      functionName: 'events',
      pollIntervalMs: 20,
      shardDiscoveryIntervalMs: 200,
      retryDelayMs: () => 10,
      handler: withAuditTrail(audit, async () => ({ batchItemFailures: [] })),
    });
  });

  afterAll(() => poller.stop());

  const entries = async () => (await audit.list(workspaceId, {}, { page: 1, perPage: 100 })).data;
  const entryOf = async (action: string, targetId: string): Promise<AuditEntry> => {
    let found: AuditEntry | undefined;
    await until(async () => (found = (await entries()).find((entry) => entry.action === action && entry.target.id === targetId)) !== undefined, 20_000, action);
    return found!;
  };

  it("records a document's creation, update and deletion with the acting user, token, address, agent and request", async () => {
    const w = c.forWorkspace(workspaceId);
    const document = aDocumentRecord();
    const creator = actor({ token_id: crypto.randomUUID() });
    const editor = actor();
    const deleter = actor();

    await runAsActor(creator, () => w.documents.create(document));
    await runAsActor(editor, () => w.documents.update(document.id, { title: 'renamed' }, new Date().toISOString()));
    await runAsActor(deleter, () => w.documents.delete(document.id));

    const expectActor = (who: RequestActor) => ({ user_id: who.user_id, token_id: who.token_id, ip: who.ip, user_agent: who.user_agent, request_id: who.request_id });
    expect(await entryOf('document.created', document.id)).toMatchObject({ actor: expectActor(creator), target: { type: 'document', name: document.filename } });
    expect(await entryOf('document.updated', document.id)).toMatchObject({ actor: expectActor(editor), details: { fields: expect.arrayContaining(['title']) } });
    expect(await entryOf('document.deleted', document.id)).toMatchObject({ actor: expectActor(deleter) });
  });

  it('records nothing for a change made outside a request (a worker)', async () => {
    const w = c.forWorkspace(workspaceId);
    const document = aDocumentRecord();
    await runAsActor(actor(), () => w.documents.create(document));
    await entryOf('document.created', document.id);

    await w.documents.update(document.id, { title: 'by a worker' }, new Date().toISOString());
    const marker = aDocumentRecord();
    await runAsActor(actor(), () => w.documents.create(marker));
    await entryOf('document.created', marker.id);

    expect((await entries()).filter((entry) => entry.target.id === document.id).map((entry) => entry.action)).toEqual(['document.created']);
  });

  it('never shows the stamp to a repository that reads the item', async () => {
    const w = c.forWorkspace(workspaceId);
    const document = aDocumentRecord();
    await runAsActor(actor(), () => w.documents.create(document));

    const read = await w.documents.get(document.id);

    expect(read).not.toHaveProperty('_actor');
  });
});
