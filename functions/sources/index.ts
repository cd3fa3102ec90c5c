import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSourcesContainer } from '../../shared/container/aws-sources';
import { createSourcesHandler } from './handler';

export const handler = lambdaEntry(createSourcesHandler(awsSourcesContainer(process.env)));
