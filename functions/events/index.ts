import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoChangeLedger } from '../../shared/adapters/aws/dynamodb/change-ledger';
import { DynamoOcrJobRepository } from '../../shared/adapters/aws/dynamodb/ocr-job-repository';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import { systemClock } from '../../shared/domain/clock';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { eventsDepsOf } from './deps';
import { auditLog } from '../../shared/container/kit/audit';
import { awsConnectionSender } from '../../shared/container/kit/aws-connections';
import { auditTableName } from '../../shared/container/kit/aws-env';
import { awsTable } from '../../shared/container/kit/aws-table';
import { connectionEventHub } from '../../shared/container/kit/event-hub';
import { createEventsHandler } from './handler';

/*
 * The `events` consumer of the table's stream: the event hub over the connections and the sender that closes
 * ended sessions, the users (a notification written before items named their workspace), the OCR jobs' daily
 * counts (queue_status), the ledger of published changes, and the audit log it appends what it derives to.
 */
const table = awsTable();
const connections = new DynamoConnectionRepository(table.db, table.name, systemClock);
const connectionSender = awsConnectionSender(process.env);

export const handler = lambdaEntry(
  createEventsHandler(
    eventsDepsOf({
      eventHub: connectionEventHub(connections, connectionSender, systemClock),
      connectionSender,
      users: new DynamoUserRepository(table.db, table.name),
      changeLedger: new DynamoChangeLedger(table.db, table.name),
      forWorkspace: (workspaceId) => ({ ocrJobs: new DynamoOcrJobRepository(table.db, table.name, workspaceId) }),
    }),
    auditLog(table.db, auditTableName(process.env)),
  ),
);
