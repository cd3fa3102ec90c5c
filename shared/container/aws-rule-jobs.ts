import { lazyS3FileStore } from '../adapters/aws/s3/lazy-file-store';
import type { AppContainer } from './app-container';
import { bucketEnvSchema, tokenlessContainer } from './aws';
import { awsRuleJobQueue } from './kit/aws-queues';
import { parseEnv, tableEnvSchema } from './config';

/** The rule-jobs worker: the repositories, the rule-jobs queue and the bucket (loaded on first use: texts too large for the table); no JWT key. */
export function awsRuleJobsDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, {
    files: lazyS3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME),
    ruleJobs: awsRuleJobQueue(env),
  });
}
