import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsBootstrapDependencies } from '../../shared/container/kit/aws-bootstrap';
import { createBootstrapHandler } from './handler';

export const handler = lambdaEntry(createBootstrapHandler(awsBootstrapDependencies()));
