import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsWebhooksContainer } from '../../shared/container/aws-webhooks';
import { createWebhooksHandler } from './handler';

export const handler = lambdaEntry(createWebhooksHandler(awsWebhooksContainer(process.env)));
