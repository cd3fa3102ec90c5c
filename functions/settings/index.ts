import { awsAppContainer } from '../../shared/container/aws';
import { createSettingsHandler } from './handler';

export const handler = createSettingsHandler(awsAppContainer());
