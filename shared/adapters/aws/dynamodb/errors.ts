import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

export const isConditionFailure = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

/** Indexes of the transaction items whose condition failed, or null when the error is something else. */
export function failedConditions(error: unknown): number[] | null {
  if (!(error instanceof TransactionCanceledException)) return null;
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
}

/** Whether a transaction was cancelled because another transaction held one of its items at that moment. */
export const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
