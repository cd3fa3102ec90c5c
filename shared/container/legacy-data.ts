import { DynamoLegacyItemAdopter } from '../adapters/aws/dynamodb/legacy-item-adoption';
import { DynamoLabelShardMigration } from '../adapters/aws/dynamodb/label-shard-migration';
import type { LegacyDataAdopter } from '../domain/workspaces/ports';
import type { ContainerParts } from './build-app-container';

/**
 * The adoption of the table's items written before workspaces. A container part (`ContainerParts.legacyData`)
 * that only the roots creating the operator's account pass (the bootstrap; the local runtime adds its bucket's
 * objects), so that no other bundle carries it. The labels' migration to shards (docs/hot-counters.md) runs after
 * the items' adoption, which may have moved old labels into the first workspace.
 */
export const dynamoLegacyItems = (db: ContainerParts['db'], tableName: string): LegacyDataAdopter[] => [
  new DynamoLegacyItemAdopter(db, tableName),
  new DynamoLabelShardMigration(db, tableName),
];
