import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { createAuditHandler } from './handler';

export const handler = lambdaEntry(createAuditHandler(awsAppContainer(process.env)));
