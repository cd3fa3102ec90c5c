import { DynamoSourceRepository } from '../adapters/aws/dynamodb/source-repository';
import { DynamoSourceSchedule } from '../adapters/aws/dynamodb/source-schedule';
import { DynamoSyncStateStore } from '../adapters/aws/dynamodb/sync-state-store';
import type { SourceStores } from './app-container';
import type { ContainerParts } from './build-app-container';

/**
 * The sources' stores over the table: each workspace's sources and sync state, and the schedule across them.
 * A container part (`ContainerParts.sourceStores`) that only the roots of what manages, syncs and schedules
 * sources pass, so that no other Lambda bundle carries these repositories.
 */
export const dynamoSourceStores = (db: ContainerParts['db'], tableName: string): SourceStores => ({
  forWorkspace: (workspaceId) => ({
    sources: new DynamoSourceRepository(db, tableName, workspaceId),
    syncState: new DynamoSyncStateStore(db, tableName, workspaceId),
  }),
  schedule: new DynamoSourceSchedule(db, tableName),
});
