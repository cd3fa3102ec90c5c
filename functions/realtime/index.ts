import { awsRealtimeContainer } from '../../shared/container/aws';
import { createRealtimeHandler } from './handler';

export const handler = createRealtimeHandler(awsRealtimeContainer());
