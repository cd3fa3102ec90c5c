import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSourceSchedulerDependencies } from '../../shared/container/aws-source-scheduler';
import { createSourceSchedulerHandler } from './handler';

export const handler = lambdaEntry(createSourceSchedulerHandler(awsSourceSchedulerDependencies(process.env)));
