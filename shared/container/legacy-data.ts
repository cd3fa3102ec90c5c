import { DynamoLegacyItemAdopter } from '../adapters/aws/dynamodb/legacy-item-adoption';
import type { LegacyDataAdopter } from '../domain/workspaces/ports';
import type { ContainerParts } from './build-app-container';

/**
 * The adoption of the table's items written before workspaces. A container part (`ContainerParts.legacyData`)
 * that only the roots creating the operator's account pass (the bootstrap; the local runtime adds its bucket's
 * objects), so that no other bundle carries it.
 */
export const dynamoLegacyItems = (db: ContainerParts['db'], tableName: string): LegacyDataAdopter[] => [
  new DynamoLegacyItemAdopter(db, tableName),
];
