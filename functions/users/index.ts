import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { createUsersHandler } from './handler';

export const handler = lambdaEntry(createUsersHandler(awsAppContainer()));
