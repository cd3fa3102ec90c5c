import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamChangesHandler } from '../../shared/adapters/aws/dynamodb/stream-changes';
import { followChanges, type FollowChangesDeps } from '../../shared/domain/search/follow-changes';

/**
 * The `indexer` consumer of the table's stream: keeps the search index in step with documents, their text and
 * labels (see followChanges), with partial batch failures. Idempotent: a batch delivered twice has one effect.
 */
export const createIndexerHandler = (deps: FollowChangesDeps): ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) =>
  streamChangesHandler('indexer', (changes) => followChanges(deps, changes));
