import { BatchWriteCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoErasureRepository } from '../../../../../shared/adapters/aws/dynamodb/erasure-repository';
import { DynamoWorkspaceTableEraser } from '../../../../../shared/adapters/aws/dynamodb/workspace-table-eraser';
import { ensureBucket } from '../../../../../shared/adapters/aws/provisioning';
import { S3WorkspaceEraser } from '../../../../../shared/adapters/aws/s3/workspace-eraser';
import { systemClock } from '../../../../../shared/domain/clock';
import { eraseWorkspace, type EraseWorkspaceDeps } from '../../../../../shared/domain/erasure/erase-workspace';
import { NO_COUNTS, type ScanPositions } from '../../../../../shared/domain/erasure/erasure';
import { freshTable, testClients, uniqueName } from '../../../../support/aws-resources';

/** Items of each workspace: enough for several pages of each of the scan's four segments at 10 items a page. */
const ITEMS = 160;
const PAGE_ITEMS = 10;

type Scan = { segment: number; start: Record<string, unknown> | undefined };

/** The client, counting its sends in flight and recording every scan's segment and start. */
function recordingClient(db: DynamoDBDocumentClient) {
  const scans: Scan[] = [];
  let inFlight = 0;
  const client = {
    send: async (command: { input: unknown }) => {
      if (command instanceof ScanCommand) scans.push({ segment: command.input.Segment ?? 0, start: command.input.ExclusiveStartKey });
      inFlight += 1;
      try {
        return await db.send(command as never);
      } finally {
        inFlight -= 1;
      }
    },
  } as unknown as DynamoDBDocumentClient;
  /** Resolves once no send has been in flight for a while (segments still running after another one failed). */
  const settled = async () => {
    for (let quiet = 0; quiet < 5; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      quiet = inFlight === 0 ? quiet + 1 : 0;
    }
  };
  return { client, scans, settled };
}

async function putItems(db: DynamoDBDocumentClient, tableName: string, workspaceId: string): Promise<void> {
  const items = Array.from({ length: ITEMS }, (_, i) => ({ pk: `WS#${workspaceId}#DOC#${String(i).padStart(4, '0')}`, sk: 'META', n: i }));
  for (let i = 0; i < items.length; i += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
  }
}

async function itemsOf(db: DynamoDBDocumentClient, tableName: string, workspaceId: string): Promise<number> {
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(pk, :ws)', ExpressionAttributeValues: { ':ws': `WS#${workspaceId}#` }, ExclusiveStartKey: cursor }));
    count += page.Count ?? 0;
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return count;
}

/**
 * An erasure stopped in the middle of its table step (DynamoDB Local): the scan's position per segment is in the
 * deletion record, and the erasure resumed continues each segment from there and completes.
 */
describe('an erasure resumed in the middle of its table scan', () => {
  let db: DynamoDBDocumentClient;
  let tableName: string;
  let bucket: string;
  const workspaceId = crypto.randomUUID();
  const neighbourId = crypto.randomUUID();
  let saved: ScanPositions;
  let resumedScans: Scan[];
  let outcome: string;

  beforeAll(async () => {
    ({ db, tableName } = await freshTable());
    bucket = uniqueName('erasure-resume');
    const { s3 } = testClients();
    await ensureBucket(s3, bucket);
    await putItems(db, tableName, workspaceId);
    await putItems(db, tableName, neighbourId);
    const erasures = new DynamoErasureRepository(db, tableName);
    await erasures.start({
      workspace_id: workspaceId, workspace_name: 'gone', requested_by: { user_id: 'u', operator: false }, requested_at: new Date().toISOString(),
      status: 'erasing', steps_done: ['connections', 'automation'], counts: NO_COUNTS,
    });
    const depsWith = (client: DynamoDBDocumentClient, repository: EraseWorkspaceDeps['erasures']): EraseWorkspaceDeps => ({
      clock: systemClock,
      erasures: repository,
      table: new DynamoWorkspaceTableEraser(client, tableName, PAGE_ITEMS),
      objects: new S3WorkspaceEraser(s3, bucket, false),
      // The workspace has no search index entries nor connections: what this test is about is the table.
      index: { erase: async () => 0 },
      connections: { closeAll: async () => 0 },
    });
    // The first run: its process dies at its 6th save of a scan position.
    const first = recordingClient(db);
    let saves = 0;
    const dying: EraseWorkspaceDeps['erasures'] = Object.assign(Object.create(erasures) as DynamoErasureRepository, {
      saveScanPosition: async (...args: Parameters<DynamoErasureRepository['saveScanPosition']>) => {
        if (++saves >= 6) throw new Error('the process died');
        return erasures.saveScanPosition(...args);
      },
    });
    await expect(eraseWorkspace(depsWith(first.client, dying), workspaceId)).rejects.toThrow('the process died');
    await first.settled();
    saved = (await erasures.find(workspaceId))!.scan!.positions;
    // The second run, as the message delivered again would make it.
    const second = recordingClient(db);
    outcome = await eraseWorkspace(depsWith(second.client, erasures), workspaceId);
    resumedScans = second.scans;
  });

  it('saved where each segment had got to in the deletion record', () => {
    const positions = Object.values(saved);

    expect(positions.length).toBeGreaterThan(0);
    expect(positions.every((position) => position.removed > 0 && (position.done || position.after !== null))).toBe(true);
  });

  it('continues each segment from its saved position, never from the start of a segment that had begun', () => {
    const firstScans = new Map<number, Scan>();
    for (const scan of resumedScans) if (!firstScans.has(scan.segment)) firstScans.set(scan.segment, scan);

    for (const [segment, position] of Object.entries(saved)) {
      if (position.done) continue;
      expect(firstScans.get(Number(segment))?.start, `segment ${segment}`).toEqual(position.after);
    }
  });

  it('completes, leaving nothing of the workspace and all of its neighbour', async () => {
    const erasure = await new DynamoErasureRepository(db, tableName).find(workspaceId);

    expect({ outcome, status: erasure?.status, scan: erasure?.scan, left: await itemsOf(db, tableName, workspaceId), neighbour: await itemsOf(db, tableName, neighbourId) }).toEqual({
      outcome: 'completed',
      status: 'completed',
      scan: undefined,
      left: 0,
      neighbour: ITEMS,
    });
  });
});
