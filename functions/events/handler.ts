import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { streamChangesHandler } from '../../shared/adapters/aws/dynamodb/stream-changes';
import { publishChanges, type PublishChangesDeps } from '../../shared/domain/events/publish-changes';
import { withAuditTrail } from '../../shared/adapters/aws/dynamodb/audit-records';
import type { AuditLog } from '../../shared/domain/audit/ports';

/**
 * The `events` consumer of the table's stream: pushes the P events each change calls for (see deriveEvents and
 * publishChanges) and ends the connections whose sessions were ended, in order, with partial batch failures. A
 * change delivered twice is acted on once. Given the audit log, it also derives the log's entries from each batch
 * first (the stream has three consumers already; see docs/audit-and-erasure.md).
 */
export const createEventsHandler = (deps: PublishChangesDeps, audit?: Pick<AuditLog, 'append'>): ((event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>) => {
  const events = streamChangesHandler('events', (changes) => publishChanges(deps, changes));
  return audit ? withAuditTrail(audit, events) : events;
};
