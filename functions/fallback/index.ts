import { corsOriginsFromEnv } from '../../shared/container/config';
import { createFallbackHandler } from './handler';

export const handler = createFallbackHandler({ corsOrigins: corsOriginsFromEnv() });
