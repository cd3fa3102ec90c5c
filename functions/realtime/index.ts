import { awsAppContainer } from '../../shared/container/aws';
import { createRealtimeHandler } from './handler';

export const handler = createRealtimeHandler(awsAppContainer());
