import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsRealtimeContainer } from '../../shared/container/aws';
import { createRealtimeHandler } from './handler';

export const handler = lambdaEntry(createRealtimeHandler(awsRealtimeContainer()));
