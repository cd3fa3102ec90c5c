import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { createNotificationsHandler } from './handler';

export const handler = lambdaEntry(createNotificationsHandler(awsAppContainer()));
