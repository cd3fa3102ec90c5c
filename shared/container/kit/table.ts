import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The application's table: the client and the name every repository takes. */
export interface Table {
  db: DynamoDBDocumentClient;
  name: string;
}
