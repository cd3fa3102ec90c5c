import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAuthContainer } from '../../shared/container/aws-auth';
import { createAuthHandler } from './handler';

export const handler = lambdaEntry(createAuthHandler(awsAuthContainer()));
