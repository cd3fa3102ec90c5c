import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { TextractClient } from '@aws-sdk/client-textract';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { traced } from '../otel/process-tracing';
import { stampActors } from './dynamodb/actor-stamp';

/**
 * Where an SDK client points. In the cloud both fields are left out (default credential chain, regional
 * endpoint); locally the endpoint is an emulator on loopback and the credentials are static.
 *
 * One factory per service, so a Lambda bundle carries only the clients its function uses. In Lambda each
 * client's calls are traced with OpenTelemetry (`traced`: locally only when asked for). S3's and SQS's are in modules of their own
 * (`s3/client.ts`, `sqs/client.ts`), so that a function that uses them only now and then can load them on first
 * use: a bundle splits by module, and a factory here would make the client part of every cold start of a
 * function that imports this one.
 */
export interface ClientOptions {
  endpoint?: string | undefined;
  region?: string | undefined;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** The options every client takes from {@link ClientOptions}. */
export const clientBase = ({ endpoint, region, credentials }: ClientOptions) => ({
  ...(endpoint ? { endpoint } : {}),
  ...(region ? { region } : {}),
  ...(credentials ? { credentials } : {}),
});

export const createDynamoDocumentClient = (options: ClientOptions = {}): DynamoDBDocumentClient =>
  // Every write names who made it, when a request made it (the audit log follows from the stamps).
  stampActors(DynamoDBDocumentClient.from(traced(new DynamoDBClient(clientBase(options))), { marshallOptions: { removeUndefinedValues: true } }));

export const createSecretsClient = (options: ClientOptions = {}): SecretsManagerClient =>
  traced(new SecretsManagerClient(clientBase(options)));

export const createKmsClient = (options: ClientOptions = {}): KMSClient => traced(new KMSClient(clientBase(options)));

/**
 * Textract's client sends each call once (`maxAttempts: 1`): the OCR engine retries throttling and transient
 * errors itself and defers a job Textract keeps throttling (textract/ocr-engine.ts), and SDK retries under each
 * of its attempts would multiply the calls sent to a service that is asking for fewer.
 */
export const createTextractClient = (options: ClientOptions = {}): TextractClient =>
  traced(new TextractClient({ ...clientBase(options), maxAttempts: 1 }));

/**
 * API Gateway's management API (`@connections`) of one WebSocket stage: `endpoint` is the stage's callback URL
 * in the cloud, the local gateway's URL locally. Events go to many connections at once, so the client keeps
 * more sockets open than the SDK's default 50, and reuses its resolved middleware across calls
 * (`cacheMiddleware`) instead of building its handler chain again for every call. The cache only applies to
 * calls made without options, so a send is bounded by the handler's `requestTimeout`, not an abort signal.
 */
export const createConnectionsClient = (
  options: ClientOptions & { endpoint: string; requestTimeoutMs: number },
): ApiGatewayManagementApiClient =>
  traced(
    new ApiGatewayManagementApiClient({
      ...clientBase(options),
      cacheMiddleware: true,
      requestHandler: {
        requestTimeout: options.requestTimeoutMs,
        throwOnRequestTimeout: true,
        httpAgent: { keepAlive: true, maxSockets: 256 },
        httpsAgent: { keepAlive: true, maxSockets: 256 },
      },
    }),
  );
