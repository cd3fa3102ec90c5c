import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { createSettingsHandler } from './handler';

export const handler = lambdaEntry(createSettingsHandler(awsAppContainer()));
