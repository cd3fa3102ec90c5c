import {
  ApiGatewayManagementApiClient,
  DeleteConnectionCommand,
  ForbiddenException,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiGatewayConnectionSender } from '../../../../../shared/adapters/aws/apigateway/connection-sender';

// API Gateway's 410 for a vanished connection cannot be produced locally on demand: the SDK client is mocked.
const api = mockClient(ApiGatewayManagementApiClient);
const gone = () => new GoneException({ message: 'Gone', $metadata: { httpStatusCode: 410 } });
const sender = () =>
  new ApiGatewayConnectionSender(
    () => new ApiGatewayManagementApiClient({ region: 'us-east-1', endpoint: 'https://example.execute-api.us-east-1.amazonaws.com/prod' }),
  );

describe('ApiGatewayConnectionSender', () => {
  beforeEach(() => api.reset());

  it('posts the message to the connection and reports it sent', async () => {
    // Arrange
    api.on(PostToConnectionCommand).resolves({});

    // Act
    const result = await sender().send('abc=', '{"type":"pong","data":{}}');

    // Assert
    expect(result).toBe('sent');
    const [call] = api.commandCalls(PostToConnectionCommand);
    expect(call?.args[0].input.ConnectionId).toBe('abc=');
    expect(new TextDecoder().decode(call?.args[0].input.Data as Uint8Array)).toBe('{"type":"pong","data":{}}');
  });

  it('reports a connection API Gateway answers 410 for as gone', async () => {
    // Arrange
    api.on(PostToConnectionCommand).rejects(gone());

    // Act
    const result = await sender().send('abc=', '{}');

    // Assert
    expect(result).toBe('gone');
  });

  it('rethrows any other failure', async () => {
    // Arrange
    api.on(PostToConnectionCommand).rejects(new ForbiddenException({ message: 'Forbidden', $metadata: { httpStatusCode: 403 } }));

    // Act
    const sending = sender().send('abc=', '{}');

    // Assert
    await expect(sending).rejects.toThrow('Forbidden');
  });

  it('closes a connection with DeleteConnection', async () => {
    // Arrange
    api.on(DeleteConnectionCommand).resolves({});

    // Act
    await sender().close('abc=');

    // Assert
    expect(api.commandCalls(DeleteConnectionCommand)[0]?.args[0].input).toEqual({ ConnectionId: 'abc=' });
  });

  it('takes closing a connection that is already gone calmly', async () => {
    // Arrange
    api.on(DeleteConnectionCommand).rejects(gone());

    // Act
    const closing = sender().close('abc=');

    // Assert
    await expect(closing).resolves.toBeUndefined();
  });
});
