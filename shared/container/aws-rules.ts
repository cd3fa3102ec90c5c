import { lazyS3FileStore } from '../adapters/aws/lazy-s3-file-store';
import type { AppContainer } from './app-container';
import { awsAppContainer, bucketEnvSchema, tokenlessContainer } from './aws';
import { awsRuleJobQueue } from './aws-queues';
import { parseEnv, tableEnvSchema } from './config';

/*
 * The labelling rules' part of the cloud composition root: the labels function starts rule runs (it sends their
 * first step), the rule-jobs worker runs them (it reads texts too large for the table from the bucket).
 */

/** The label and rule endpoints: the app container and the rule-jobs queue. */
export function awsLabelsContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, { ruleJobs: awsRuleJobQueue(env) });
}

/** The rule-jobs worker: the repositories, the rule-jobs queue and the bucket (loaded on first use); no JWT key. */
export function awsRuleJobsDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, {
    files: lazyS3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME),
    ruleJobs: awsRuleJobQueue(env),
  });
}
