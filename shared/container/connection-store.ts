import { DynamoConnectionRepository } from '../adapters/aws/dynamodb/connection-repository';
import type { Clock } from '../domain/clock';
import type { ConnectionRepository } from '../domain/connections/ports';
import type { ContainerParts } from './build-app-container';

/**
 * The WebSocket connections over the table. A container part (`ContainerParts.connectionStore`) that the HTTP
 * functions' root (sessions end or move on logout, refresh, password change and user removal; the system
 * metrics count them), the events consumer and the local runtime pass, so that no other worker's bundle
 * carries the repository.
 */
export const dynamoConnections = (db: ContainerParts['db'], tableName: string, clock: Clock): ConnectionRepository =>
  new DynamoConnectionRepository(db, tableName, clock);
