import { DynamoLegacyItemAdopter } from '../../adapters/aws/dynamodb/legacy-item-adoption';
import { DynamoLabelShardMigration } from '../../adapters/aws/dynamodb/label-shard-migration';
import type { LegacyDataAdopter } from '../../domain/workspaces/ports';
import type { Table } from './table';

/**
 * The adoption of the table's items written before workspaces, by what creates the operator's account (the
 * bootstrap; the local runtime adds its bucket's objects). The labels' migration to shards (docs/hot-counters.md) runs after
 * the items' adoption, which may have moved old labels into the first workspace.
 */
export const dynamoLegacyItems = (db: Table['db'], tableName: string): LegacyDataAdopter[] => [
  new DynamoLegacyItemAdopter(db, tableName),
  new DynamoLabelShardMigration(db, tableName),
];
