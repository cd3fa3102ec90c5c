import type { DynamoDBStreamEvent } from 'aws-lambda';
import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsIndexerDependencies } from '../../shared/container/aws-search';
import { createIndexerHandler } from './handler';
import { createReconcileHandler } from './reconcile';
import { isReconcileEvent, type ReconcileEvent } from '../../shared/manifest';

const deps = awsIndexerDependencies();
const followChanges = createIndexerHandler(deps.changes);
const reconcile = createReconcileHandler(deps.reconcile);

/** One function, two events: a batch of the table's stream, or the schedule's reconciliation (`{ "reconcile": true }`). */
export const handler = lambdaEntry(async (event: DynamoDBStreamEvent | ReconcileEvent) => (isReconcileEvent(event) ? reconcile(event) : followChanges(event)));
