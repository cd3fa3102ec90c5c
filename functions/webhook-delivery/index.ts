import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsWebhookDeliveryDependencies } from '../../shared/container/aws-webhooks';
import { createWebhookDeliveryHandler } from './handler';

export const handler = lambdaEntry(createWebhookDeliveryHandler(awsWebhookDeliveryDependencies()));
