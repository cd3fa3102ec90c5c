import type { AppContainer } from './app-container';
import { awsAppContainer } from './aws';
import { awsRuleJobQueue } from './kit/aws-queues';

/*
 * The labels function's part of the cloud composition root: it starts rules' runs over existing documents, so it
 * sends their first steps; apart from aws-rule-jobs.ts so that its bundle holds no import() of the S3 client.
 */

/** The label and rule endpoints: the app container and the rule-jobs queue. */
export function awsLabelsContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, { ruleJobs: awsRuleJobQueue(env) });
}
