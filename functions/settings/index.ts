import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { createSettingsHandler } from './handler';

export const handler = lambdaEntry(createSettingsHandler(awsHttp().gate));
