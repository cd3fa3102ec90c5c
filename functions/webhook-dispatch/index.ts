import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsWebhookDispatchDependencies } from '../../shared/container/aws-webhooks';
import { createWebhookDispatchHandler } from './handler';

export const handler = lambdaEntry(createWebhookDispatchHandler(awsWebhookDispatchDependencies()));
