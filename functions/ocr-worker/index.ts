import { awsOcrWorkerDependencies } from '../../shared/container/aws';
import { createOcrWorkerHandler } from './handler';

export const handler = createOcrWorkerHandler(awsOcrWorkerDependencies());
