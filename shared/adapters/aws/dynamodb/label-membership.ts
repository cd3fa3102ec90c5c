import type { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * The two writes that put a document in a label: the membership item and the count, on condition that the
 * label exists. Every writer of memberships (document create/update, label assign) uses these, so the count
 * can only move together with a membership.
 */
export const joinLabel = (tableName: string, labelId: string, documentId: string): TransactItem[] => [
  {
    Update: {
      TableName: tableName,
      Key: keys.label(labelId),
      UpdateExpression: 'ADD document_count :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    },
  },
  { Put: { TableName: tableName, Item: { ...keys.labelMember(labelId, documentId), document_id: documentId } } },
];

/**
 * The reverse of {@link joinLabel}. The membership must exist: when a label delete has already taken the label
 * off the document, the condition fails and the caller re-reads the document.
 */
export const leaveLabel = (tableName: string, labelId: string, documentId: string): TransactItem[] => [
  {
    Update: {
      TableName: tableName,
      Key: keys.label(labelId),
      UpdateExpression: 'ADD document_count :minus',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minus': -1 },
    },
  },
  {
    Delete: {
      TableName: tableName,
      Key: keys.labelMember(labelId, documentId),
      ConditionExpression: 'attribute_exists(pk)',
    },
  },
];
