import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAuditLog } from '../../shared/container/aws-audit';
import { awsEventsDependencies } from '../../shared/container/aws-events';
import { createEventsHandler } from './handler';

export const handler = lambdaEntry(createEventsHandler(awsEventsDependencies(), awsAuditLog()));
