import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsRealtimeContainer } from '../../shared/container/aws-events';
import { createRealtimeHandler } from './handler';

export const handler = lambdaEntry(createRealtimeHandler(awsRealtimeContainer()));
