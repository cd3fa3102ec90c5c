import type { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { WorkspaceTable } from './keys';
import { queryAll } from './queries';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * The two writes that put a document in a label: the membership item and the count, on condition that the
 * label exists. Every writer of memberships (document create/update, label assign) uses these, so the count
 * can only move together with a membership.
 */
export const joinLabel = ({ tableName, keys }: WorkspaceTable, labelId: string, documentId: string): TransactItem[] => [
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
 * off the document, the condition fails and the caller re-reads the document. A label that is gone has no
 * count to move (an ADD would bring its item back): then only the membership goes, and unconditionally, as the
 * label delete that is taking the label off its documents may have removed it already.
 */
export const leaveLabel = ({ tableName, keys }: WorkspaceTable, labelId: string, documentId: string, labelGone = false): TransactItem[] =>
  labelGone
    ? [{ Delete: { TableName: tableName, Key: keys.labelMember(labelId, documentId) } }]
    : [
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

/** Which label's count a transaction item of {@link joinLabel} or {@link leaveLabel} moves, if any. */
export const countedLabel = (item: TransactItem | undefined): string | null => {
  const key = item?.Update?.Key as { pk?: unknown; sk?: unknown } | undefined;
  const labelId = typeof key?.pk === 'string' && key.sk === 'META' ? /#LABEL#([^#]+)$/.exec(key.pk)?.[1] : undefined;
  return labelId ?? null;
};

/**
 * Ids of the documents carrying a label, from its membership items, read strongly consistent: a label delete
 * or rename must see every membership written before it, or it would leave that document behind.
 */
export async function currentLabelMembers(db: DynamoDBDocumentClient, { tableName, keys }: WorkspaceTable, labelId: string): Promise<string[]> {
  const items = await queryAll(db, {
    TableName: tableName,
    KeyConditionExpression: 'pk = :label AND begins_with(sk, :doc)',
    ExpressionAttributeValues: { ':label': keys.label(labelId).pk, ':doc': 'DOC#' },
    ConsistentRead: true,
  });
  return items.map((item) => item['document_id'] as string);
}
