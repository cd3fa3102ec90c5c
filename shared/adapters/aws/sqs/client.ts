import { SQSClient } from '@aws-sdk/client-sqs';
import { traced } from '../../otel/process-tracing';
import { clientBase, type ClientOptions } from '../clients';

/** The SQS client (see `clients.ts` for the options and for why it has a module of its own). */
export const createSqsClient = (options: ClientOptions = {}): SQSClient => traced(new SQSClient(clientBase(options)));
