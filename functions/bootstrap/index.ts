import { awsBootstrapDependencies } from '../../shared/container/aws';
import { createBootstrapHandler } from './handler';

export const handler = createBootstrapHandler(awsBootstrapDependencies());
