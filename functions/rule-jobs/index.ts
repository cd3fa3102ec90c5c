import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsRuleJobsDependencies } from '../../shared/container/aws-rule-jobs';
import { createRuleJobsHandler } from './handler';

export const handler = lambdaEntry(createRuleJobsHandler(awsRuleJobsDependencies()));
