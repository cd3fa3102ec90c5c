import { awsOcrContainer } from '../../shared/container/aws';
import { createOcrHandler } from './handler';

export const handler = createOcrHandler(awsOcrContainer());
