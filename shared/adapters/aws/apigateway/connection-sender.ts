import {
  DeleteConnectionCommand,
  GoneException,
  PostToConnectionCommand,
  type ApiGatewayManagementApiClient,
} from '@aws-sdk/client-apigatewaymanagementapi';
import type { ConnectionSender, SendResult } from '../../../domain/connections/ports';

/** API Gateway answers 410 for a connection that no longer exists. */
const isGone = (error: unknown): boolean =>
  error instanceof GoneException || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410;

/**
 * Pushes to WebSocket connections through API Gateway's management API: PostToConnection to send,
 * DeleteConnection to close. Locally the same client talks to the local gateway's `@connections` endpoint.
 * The client is made on first use, since locally the gateway's address is known only once it listens.
 */
export class ApiGatewayConnectionSender implements ConnectionSender {
  private client: ApiGatewayManagementApiClient | undefined;

  constructor(private readonly clientOf: () => ApiGatewayManagementApiClient) {}

  async send(connectionId: string, message: string): Promise<SendResult> {
    try {
      await this.sdk().send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: new TextEncoder().encode(message) }));
      return 'sent';
    } catch (error) {
      if (isGone(error)) return 'gone';
      throw error;
    }
  }

  async close(connectionId: string): Promise<void> {
    try {
      await this.sdk().send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }

  private sdk(): ApiGatewayManagementApiClient {
    this.client ??= this.clientOf();
    return this.client;
  }
}
