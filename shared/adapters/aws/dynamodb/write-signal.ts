import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The table's write operations, by the DynamoDB client's command names. */
const WRITE_COMMAND = /^(PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems)Command$/;

/**
 * Calls `onWrite` after every write the client makes that succeeded (the local runtime wakes its stream
 * consumers), except the writes `ignore` names (the consumers' own bookkeeping, which no consumer follows).
 */
export function signalWrites(db: DynamoDBDocumentClient, onWrite: () => void, ignore: (input: Record<string, unknown>) => boolean = () => false): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (WRITE_COMMAND.test(context.commandName ?? '') && !ignore(args.input as Record<string, unknown>)) onWrite();
      return output;
    },
    { step: 'initialize', name: 'signalTableWrites' },
  );
}
