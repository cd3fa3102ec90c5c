import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createNotificationsHandler } from './handler';

const { gate, table } = awsHttp();

export const handler = lambdaEntry(createNotificationsHandler({ ...gate, notifications: new DynamoNotificationRepository(table.db, table.name) }));
