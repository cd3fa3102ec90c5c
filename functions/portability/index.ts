import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsPortabilityContainer } from '../../shared/container/aws-portability';
import { createPortabilityHandler } from './handler';

export const handler = lambdaEntry(createPortabilityHandler(awsPortabilityContainer(process.env)));
