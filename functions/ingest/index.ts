import { awsIngestDependencies } from '../../shared/container/aws';
import { createIngestHandler } from './handler';

export const handler = createIngestHandler(awsIngestDependencies());
