import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** A request or reply as text, sets included, for matching by what it says. */
const asText = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => (item instanceof Set ? [...(item as Set<unknown>)] : item));

export interface Hold {
  /** Resolves once a matching request is being held. */
  held: Promise<void>;
  /** Lets every held request (and any later one) through. */
  release(): void;
}

type Matcher = (command: string, input: string, output: string) => boolean;

/**
 * Fault injection on a real engine: requests that `matches` are held, until `release`, either before DynamoDB
 * sees them (`'request'`: a slow write) or after it answered (`'reply'`: a read that returns late, with what was
 * true when it was made). A race between two use cases can then be run in one precise interleaving instead of
 * hoping for it. Commands are named as the low-level client names them (GetItemCommand,
 * TransactWriteItemsCommand); on a request, `output` is empty. Give the client only to the code to slow down.
 */
export function hold(client: DynamoDBDocumentClient, what: 'request' | 'reply', matches: Matcher): Hold {
  let signalHeld!: () => void;
  const held = new Promise<void>((resolve) => (signalHeld = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const stop = async () => {
    signalHeld();
    await released;
  };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      if (what === 'request' && matches(command, asText(args.input), '')) await stop();
      const result = await next(args);
      if (what === 'reply' && matches(command, asText(args.input), asText(result.output))) await stop();
      return result;
    },
    { step: 'initialize', name: 'hold' },
  );
  return { held, release };
}
