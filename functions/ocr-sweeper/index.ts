import { awsOcrSweeperDependencies } from '../../shared/container/aws';
import { createOcrSweeperHandler } from './handler';

export const handler = createOcrSweeperHandler(awsOcrSweeperDependencies());
