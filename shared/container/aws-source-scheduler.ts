import type { AppContainer } from './app-container';
import { tokenlessContainer } from './aws';
import { awsSyncQueue } from './kit/aws-queues';
import { parseEnv, tableEnvSchema } from './config';
import { dynamoSourceStores } from './source-stores';

/* The schedule's root, apart from aws-sources.ts, whose WebDAV client it has no use for. */

/** The schedule: the sources' stores and the sync queue, nothing else. */
export function awsSourceSchedulerDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, { syncQueue: awsSyncQueue(env), sourceStores: dynamoSourceStores });
}
