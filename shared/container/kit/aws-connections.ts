import * as z from '../../zod';
import { ApiGatewayConnectionSender } from '../../adapters/aws/apigateway/connection-sender';
import { createConnectionsClient } from '../../adapters/aws/clients';
import type { ConnectionSender } from '../../domain/connections/ports';
import { parseEnv } from './config';
import { EVENT_SEND_TIMEOUT_MS } from './event-hub';

const websocketEnvSchema = z.lazy(() => z.object({ WEBSOCKET_ENDPOINT: z.url() }));

/**
 * The @connections API of the WebSocket stage the stack binds the function to (WEBSOCKET_ENDPOINT): only the
 * functions that push to or close connections (realtime, events, eraser) bundle its client.
 */
export const awsConnectionSender = (env: NodeJS.ProcessEnv): ConnectionSender => {
  const endpoint = parseEnv(websocketEnvSchema, env).WEBSOCKET_ENDPOINT;
  return new ApiGatewayConnectionSender(() => createConnectionsClient({ endpoint, requestTimeoutMs: EVENT_SEND_TIMEOUT_MS }));
};
