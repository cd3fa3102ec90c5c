import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamChangesHandler } from '../../shared/adapters/aws/dynamodb/stream-changes';
import { publishChanges, type PublishChangesDeps } from '../../shared/domain/events/publish-changes';

/**
 * The `events` consumer of the table's stream: pushes the P events each change calls for (see deriveEvents and
 * publishChanges) and ends the connections whose sessions were ended, in order, with partial batch failures. A
 * change delivered twice is acted on once.
 */
export const createEventsHandler = (deps: PublishChangesDeps): ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) =>
  streamChangesHandler('events', (changes) => publishChanges(deps, changes));
