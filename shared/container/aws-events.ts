import * as z from '../zod';
import { ApiGatewayConnectionSender } from '../adapters/aws/apigateway/connection-sender';
import { createConnectionsClient } from '../adapters/aws/clients';
import type { PublishChangesDeps } from '../domain/events/publish-changes';
import type { AppContainer } from './app-container';
import { EVENT_SEND_TIMEOUT_MS } from './build-app-container';
import { eventsDepsOf } from './consumer-deps';
import { awsAppContainer, tokenlessContainer, type ConnectionParts } from './aws';
import { parseEnv, tableEnvSchema } from './config';
import { dynamoConnections } from './connection-store';

/*
 * The WebSocket part of the cloud composition root, apart from aws.ts so that only the functions that push to
 * connections (realtime, which answers the clients, and events, which follows the table's stream) bundle the
 * @connections client.
 */

const websocketEnvSchema = z.object({ WEBSOCKET_ENDPOINT: z.url() });

/** The connections and the @connections API of the stage the stack binds the function to (WEBSOCKET_ENDPOINT, required). */
function connectionParts(env: NodeJS.ProcessEnv): Required<ConnectionParts> {
  const endpoint = parseEnv(websocketEnvSchema, env).WEBSOCKET_ENDPOINT;
  return {
    connectionStore: dynamoConnections,
    connectionSender: new ApiGatewayConnectionSender(() => createConnectionsClient({ endpoint, requestTimeoutMs: EVENT_SEND_TIMEOUT_MS })),
  };
}

/** The WebSocket routes: the app container, which must be able to push to connections. */
export function awsRealtimeContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, connectionParts(env));
}

/**
 * The `events` consumer of the table's stream: the event hub over the connections and the sender that closes
 * ended sessions, the users (a notification written before items named their workspace), the OCR jobs' daily
 * counts (queue_status) and the ledger of published changes; no JWT key.
 */
export function awsEventsDependencies(env: NodeJS.ProcessEnv = process.env): PublishChangesDeps {
  return eventsDepsOf(tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, connectionParts(env)));
}
