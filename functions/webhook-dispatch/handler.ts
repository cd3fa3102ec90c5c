import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamChangesHandler } from '../../shared/adapters/aws/dynamodb/stream-changes';
import { dispatchWebhookEvents, type DispatchDeps } from '../../shared/domain/webhooks/dispatch-webhook-events';

/**
 * The `webhook-dispatch` consumer of the table's stream: turns each change into deliveries for the workspace's
 * subscribed endpoints and queues them (see dispatchWebhookEvents), in order, with partial batch failures. It
 * never waits on an endpoint: the delivery worker does.
 */
export const createWebhookDispatchHandler = (deps: DispatchDeps): ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) =>
  streamChangesHandler('webhook-dispatch', (changes) => dispatchWebhookEvents(deps, changes));
