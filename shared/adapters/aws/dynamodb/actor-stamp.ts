import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { currentActor, withoutActor, type RequestActor } from '../../actor-context';
import { auditedItem } from './audited-items';
import { isConditionFailure } from './errors';

/** The attribute that carries who last wrote an item; no repository reads it (it is taken off every read). */
export const ACTOR_ATTRIBUTE = '_actor';

/** What a write stamps: the request's actor, a unique id of this write, and `delete` on a stamp made for a delete. */
export interface ActorStamp extends RequestActor {
  write_id: string;
  /** When the write was sent (ISO 8601, milliseconds). */
  at: string;
  op?: 'delete';
}

type Item = Record<string, unknown>;
type Key = { pk: string; sk: string };

const stampOf = (actor: RequestActor, op?: 'delete'): ActorStamp => ({ ...actor, write_id: crypto.randomUUID(), at: new Date().toISOString(), ...(op ? { op } : {}) });

/** A key as the document client takes it (a raw client's marshalled key is left alone). */
const plainKey = (key: unknown): Key | null => {
  const k = key as Item | undefined;
  return k && typeof k['pk'] === 'string' && typeof k['sk'] === 'string' ? { pk: k['pk'], sk: k['sk'] } : null;
};

/** A `SET` clause keyword of an update expression (not a placeholder such as `#set`). */
const SET_CLAUSE = /(^|[^#:\w])SET\s/i;

/** Whether the audit log follows the item a key names: only those carry a stamp (no counter, lock or bucket does). */
const audited = (key: Key | null): key is Key => key !== null && auditedItem(key.pk, key.sk) !== null;

function stampUpdate<T extends Item>(update: T, stamp: ActorStamp): T {
  if (!audited(plainKey(update['Key']))) return update;
  const expression = String(update['UpdateExpression'] ?? '');
  const match = SET_CLAUSE.exec(expression);
  const stamped = match
    ? `${expression.slice(0, match.index + match[0].length)}#_actor = :_actor, ${expression.slice(match.index + match[0].length)}`
    : `SET #_actor = :_actor ${expression}`;
  return {
    ...update,
    UpdateExpression: stamped,
    ExpressionAttributeNames: { ...(update['ExpressionAttributeNames'] as Item | undefined), '#_actor': ACTOR_ATTRIBUTE },
    ExpressionAttributeValues: { ...(update['ExpressionAttributeValues'] as Item | undefined), ':_actor': stamp },
  };
}

const stampPut = <T extends Item>(put: T, stamp: ActorStamp): T => {
  const item = put['Item'] as Item | undefined;
  return audited(plainKey(item)) ? { ...put, Item: { ...item, [ACTOR_ATTRIBUTE]: stamp } } : put;
};

/**
 * The input of a write as the request's actor makes it: every item put or updated carries the actor's stamp.
 * Also answers the keys of audited items it deletes, which must be stamped before (see {@link stampActors}).
 */
function stamped(command: string, input: Item, actor: RequestActor): { input: Item; deletes: Key[] } {
  switch (command) {
    case 'PutItemCommand':
      return { input: stampPut(input, stampOf(actor)), deletes: [] };
    case 'UpdateItemCommand':
      return { input: stampUpdate(input, stampOf(actor)), deletes: [] };
    case 'DeleteItemCommand': {
      const key = plainKey(input['Key']);
      return { input, deletes: key ? [key] : [] };
    }
    case 'TransactWriteItemsCommand': {
      const deletes: Key[] = [];
      const items = (input['TransactItems'] as Item[] | undefined)?.map((entry) => {
        if (entry['Put']) return { ...entry, Put: stampPut(entry['Put'] as Item, stampOf(actor)) };
        if (entry['Update']) return { ...entry, Update: stampUpdate(entry['Update'] as Item, stampOf(actor)) };
        const key = entry['Delete'] ? plainKey((entry['Delete'] as Item)['Key']) : null;
        if (key) deletes.push(key);
        return entry;
      });
      return { input: items ? { ...input, TransactItems: items } : input, deletes };
    }
    case 'BatchWriteItemCommand': {
      const deletes: Key[] = [];
      const requests = Object.fromEntries(
        Object.entries((input['RequestItems'] as Record<string, Item[]> | undefined) ?? {}).map(([table, writes]) => [
          table,
          writes.map((write) => {
            if (write['PutRequest']) return { ...write, PutRequest: stampPut(write['PutRequest'] as Item, stampOf(actor)) };
            const key = plainKey((write['DeleteRequest'] as Item | undefined)?.['Key']);
            if (key) deletes.push(key);
            return write;
          }),
        ]),
      );
      return { input: { ...input, RequestItems: requests }, deletes };
    }
    default:
      return { input, deletes: [] };
  }
}

/** The table a write names (a batch's first). */
const tableOf = (command: string, input: Item): string | undefined => {
  if (command === 'TransactWriteItemsCommand') {
    const first = (input['TransactItems'] as Item[] | undefined)?.find((entry) => entry['Delete']);
    return (first?.['Delete'] as Item | undefined)?.['TableName'] as string | undefined;
  }
  if (command === 'BatchWriteItemCommand') return Object.keys((input['RequestItems'] as Item | undefined) ?? {})[0];
  return input['TableName'] as string | undefined;
};

const strip = (item: unknown): void => {
  if (item && typeof item === 'object') delete (item as Item)[ACTOR_ATTRIBUTE];
};

/** Takes the stamp off whatever a call read, so that no repository or answer ever sees it. */
function stripOutput(output: Item | undefined): void {
  if (!output) return;
  strip(output['Item']);
  strip(output['Attributes']);
  for (const item of (output['Items'] as unknown[] | undefined) ?? []) strip(item);
  const responses = output['Responses'];
  if (Array.isArray(responses)) for (const response of responses) strip((response as Item | undefined)?.['Item']);
  else if (responses && typeof responses === 'object') for (const items of Object.values(responses as Record<string, unknown[]>)) for (const item of items) strip(item);
}

/**
 * Makes the client stamp the actor of the request being served (actor-context.ts) on every item the audit log
 * follows (audited-items.ts) that it puts or updates, so that the log, derived from the table's stream, names who
 * made each change, and no use case can forget to say (counters, locks and buckets carry no stamp: no address is
 * kept where the log does not need it). A delete's stream record carries only the item as it was, so an audited
 * item is stamped `delete` just before it is deleted (a change of the stamp alone, which the stream's other
 * consumers skip). Outside a request nothing is stamped: workers and schedules act as the system. Reads come back
 * without the stamp.
 */
export function stampActors(db: DynamoDBDocumentClient): DynamoDBDocumentClient {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const actor = currentActor();
      const command = context.commandName ?? '';
      if (actor) {
        const { input, deletes } = stamped(command, args.input as Item, actor);
        const table = tableOf(command, args.input as Item);
        const marked = deletes.filter(audited);
        if (table && marked.length) await Promise.all(marked.map((key) => stampForDelete(db, table, key, actor)));
        args = { ...args, input };
      }
      const result = await next(args);
      stripOutput(result.output as Item | undefined);
      return result;
    },
    { step: 'initialize', priority: 'high', name: 'stampActors' },
  );
  return db;
}

/** Stamps an item about to be deleted (if it exists): its REMOVE record's old image then names the deleter. */
async function stampForDelete(db: DynamoDBDocumentClient, table: string, key: Key, actor: RequestActor): Promise<void> {
  try {
    // Sent outside the actor's context: this write must not itself be stamped again.
    await withoutActor(() =>
      db.send(
      new UpdateCommand({
        TableName: table,
        Key: key,
        UpdateExpression: 'SET #a = :a',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#a': ACTOR_ATTRIBUTE },
        ExpressionAttributeValues: { ':a': stampOf(actor, 'delete') },
        }),
      ),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
