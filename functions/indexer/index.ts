import type { DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { indexerDepsOf, reconcileDepsOf } from './deps';
import { awsIndexSources } from '../../shared/container/kit/aws-search-index';
import { createIndexerHandler } from './handler';
import { createReconcileHandler } from './reconcile';
import { isReconcileEvent, type ReconcileEvent } from '../../shared/manifest';

// Each workspace's documents and labels, its part of the bucket (long texts) and its view of the index.
const sources = awsIndexSources();
const followChanges = createIndexerHandler(indexerDepsOf(sources));
const reconcile = createReconcileHandler(reconcileDepsOf(sources, sources.index));

/** One function, two events: a batch of the table's stream, or the schedule's reconciliation (`{ "reconcile": true }`). */
export const handler = lambdaEntry(async (event: DynamoDBStreamEvent | ReconcileEvent) => (isReconcileEvent(event) ? reconcile(event) : followChanges(event)));
