import { awsCorsOrigins } from '../../shared/container/aws';
import { createFallbackHandler } from './handler';

export const handler = createFallbackHandler({ corsOrigins: awsCorsOrigins() });
