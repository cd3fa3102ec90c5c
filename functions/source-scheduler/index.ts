import { awsSourceSchedulerDependencies } from '../../shared/container/aws';
import { createSourceSchedulerHandler } from './handler';

export const handler = createSourceSchedulerHandler(awsSourceSchedulerDependencies(process.env));
