import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { runAsActor, type RequestActor } from '../../../../../shared/adapters/actor-context';
import { stampActors } from '../../../../../shared/adapters/aws/dynamodb/actor-stamp';

const ACTOR: RequestActor = { user_id: 'u1', token_id: null, workspace_id: 'w1', ip: '192.0.2.1', user_agent: 'ua', request_id: 'r1' };

/** A stamping client whose calls never leave the process: each is recorded as sent, and answers `output`. */
function recordingClient(output: Record<string, unknown> = {}) {
  const sent: { command: string; input: Record<string, unknown> }[] = [];
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }));
  stampActors(db);
  db.middlewareStack.add(
    (_next, context) => async (args) => {
      sent.push({ command: context.commandName ?? '', input: structuredClone(args.input as Record<string, unknown>) });
      return { output: structuredClone(output) as never, response: {} };
    },
    { step: 'initialize', priority: 'low', name: 'record' },
  );
  return { db, sent };
}

describe('stamping writes with their actor', () => {
  it('adds the actor to a SET clause an update has, beside its own placeholders', async () => {
    const { db, sent } = recordingClient();

    await runAsActor(ACTOR, () =>
      db.send(new UpdateCommand({ TableName: 't', Key: { pk: 'WS#w1#DOC#d1', sk: 'META' }, UpdateExpression: 'ADD n :one SET #set = :v REMOVE x', ExpressionAttributeNames: { '#set': 'set' }, ExpressionAttributeValues: { ':one': 1, ':v': 2 } })),
    );

    expect(sent[0]!.input['UpdateExpression']).toBe('ADD n :one SET #_actor = :_actor, #set = :v REMOVE x');
    expect(sent[0]!.input['ExpressionAttributeNames']).toEqual({ '#set': 'set', '#_actor': '_actor' });
    expect(sent[0]!.input['ExpressionAttributeValues']).toMatchObject({ ':one': 1, ':v': 2, ':_actor': { user_id: 'u1', request_id: 'r1' } });
  });

  it('adds a SET clause to an update that has none', async () => {
    const { db, sent } = recordingClient();

    await runAsActor(ACTOR, () => db.send(new UpdateCommand({ TableName: 't', Key: { pk: 'WS#w1#LABEL#l1', sk: 'META' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } })));

    expect(sent[0]!.input['UpdateExpression']).toBe('SET #_actor = :_actor ADD n :one');
  });

  it("stamps a put's item and a transaction's puts and updates", async () => {
    const { db, sent } = recordingClient();

    await runAsActor(ACTOR, async () => {
      await db.send(new PutCommand({ TableName: 't', Item: { pk: 'USER#u1', sk: 'PROFILE' } }));
      await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 't', Item: { pk: 'APITOKEN#h', sk: 'TOKEN' } } }, { Update: { TableName: 't', Key: { pk: 'WS#w1#RULES', sk: 'RULE#r1' }, UpdateExpression: 'SET x = :x', ExpressionAttributeValues: { ':x': 1 } } }] }));
    });

    expect((sent[0]!.input['Item'] as Record<string, unknown>)['_actor']).toMatchObject({ user_id: 'u1' });
    const items = sent[1]!.input['TransactItems'] as Record<string, Record<string, unknown>>[];
    expect((items[0]!['Put']!['Item'] as Record<string, unknown>)['_actor']).toMatchObject({ ip: '192.0.2.1' });
    expect(items[1]!['Update']!['UpdateExpression']).toBe('SET #_actor = :_actor, x = :x');
  });

  it('stamps an audited item before deleting it, and leaves other deletes alone', async () => {
    const { db, sent } = recordingClient();

    await runAsActor(ACTOR, async () => {
      await db.send(new DeleteCommand({ TableName: 't', Key: { pk: 'WS#w1#DOC#d1', sk: 'META' } }));
      await db.send(new DeleteCommand({ TableName: 't', Key: { pk: 'RATE#user#u1', sk: 'BUCKET' } }));
    });

    expect(sent.map((call) => call.command)).toEqual(['UpdateItemCommand', 'DeleteItemCommand', 'DeleteItemCommand']);
    expect(sent[0]!.input).toMatchObject({ Key: { pk: 'WS#w1#DOC#d1', sk: 'META' }, UpdateExpression: 'SET #a = :a', ExpressionAttributeValues: { ':a': { op: 'delete', user_id: 'u1' } } });
  });

  it('stamps no item the audit log does not follow (a counter, a rate bucket)', async () => {
    const { db, sent } = recordingClient();

    await runAsActor(ACTOR, async () => {
      await db.send(new PutCommand({ TableName: 't', Item: { pk: 'RATE#user#u1', sk: 'BUCKET' } }));
      await db.send(new UpdateCommand({ TableName: 't', Key: { pk: 'WS#w1#USAGE#3', sk: '2026-11' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }));
    });

    expect(sent[0]!.input['Item']).toEqual({ pk: 'RATE#user#u1', sk: 'BUCKET' });
    expect(sent[1]!.input['UpdateExpression']).toBe('ADD n :one');
  });

  it('stamps nothing outside a request', async () => {
    const { db, sent } = recordingClient();

    await db.send(new PutCommand({ TableName: 't', Item: { pk: 'USER#u1', sk: 'PROFILE' } }));

    expect(sent[0]!.input['Item']).toEqual({ pk: 'USER#u1', sk: 'PROFILE' });
  });

  it('takes the stamp off what a read returns', async () => {
    const { db } = recordingClient({ Item: { pk: 'a', sk: 'b', _actor: { user_id: 'u1' } } });

    const { Item } = await db.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } }));

    expect(Item).toEqual({ pk: 'a', sk: 'b' });
  });
});
