import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsEraserDependencies } from '../../shared/container/aws-eraser';
import { createEraserHandler } from './handler';

export const handler = lambdaEntry(createEraserHandler(awsEraserDependencies()));
