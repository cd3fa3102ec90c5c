import { awsHealthDependencies } from '../../shared/container/aws';
import { createHealthHandler } from './handler';

export const handler = createHealthHandler(awsHealthDependencies());
