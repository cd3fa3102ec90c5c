import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsWebhookDeliveryDependencies } from '../../shared/container/aws-webhook-delivery';
import { createWebhookDeliveryHandler } from './handler';

export const handler = lambdaEntry(createWebhookDeliveryHandler(awsWebhookDeliveryDependencies()));
