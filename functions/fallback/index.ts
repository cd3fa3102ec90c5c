import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { corsOriginsFromEnv } from '../../shared/container/kit/config';
import { createFallbackHandler } from './handler';

export const handler = lambdaEntry(createFallbackHandler({ corsOrigins: corsOriginsFromEnv() }));
