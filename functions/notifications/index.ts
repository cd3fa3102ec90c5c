import { awsAppContainer } from '../../shared/container/aws';
import { createNotificationsHandler } from './handler';

export const handler = createNotificationsHandler(awsAppContainer());
