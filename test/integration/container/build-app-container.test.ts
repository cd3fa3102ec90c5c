import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContainer } from '../../../shared/container/app-container';
import { buildAppContainer } from '../../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../../shared/container/config';
import type { Clock } from '../../../shared/domain/clock';
import type { ServerEvent } from '../../../shared/domain/events/ports';
import type { ConnectionSender, SendResult } from '../../../shared/domain/connections/ports';
import { freshTable } from '../../support/aws-resources';
import { joseTokens } from '../../../shared/adapters/jwt/jose-token-service';
import { dynamoConnections } from '../../../shared/container/connection-store';
import { absentParts } from '../../support/absent-parts';

/** Stands in for API Gateway's @connections API: records what it was asked to send and close. */
class RecordingSender implements ConnectionSender {
  readonly sent: { connectionId: string; message: string }[] = [];
  readonly closed: string[] = [];

  async send(connectionId: string, message: string): Promise<SendResult> {
    this.sent.push({ connectionId, message });
    return 'sent';
  }

  async close(connectionId: string): Promise<void> {
    this.closed.push(connectionId);
  }
}

const HOUR_MS = 3_600_000;
const notification: ServerEvent = { type: 'notification', data: { id: crypto.randomUUID(), type: 'ocr_completed', title: 'OCR completed', message: 'done' } };

/** The container's event publisher judges a connection's token by the container's clock, as the tokens are judged. */
describe("the container's event publisher", () => {
  let container: AppContainer;
  const sender = new RecordingSender();
  // Two hours ahead of the system clock: a token that expires within the hour has expired by this clock.
  const clock: Clock = { now: () => new Date(Date.now() + 2 * HOUR_MS) };

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    container = buildAppContainer({
    ...absentParts(),
      db,
      tableName,
      tokens: joseTokens(async () => new TextEncoder().encode('integration-test-signing-key-of-32-bytes')),
      env: parseEnv(commonEnvSchema, {}),
      healthProbes: [],
      clock,
      connectionStore: dynamoConnections,
      connectionSender: sender,
    });
  });

  it('closes a connection whose token has expired by the container clock instead of sending it the event', async () => {
    // Arrange
    const [userId, workspaceId] = [crypto.randomUUID(), crypto.randomUUID()];
    const connectionId = crypto.randomUUID();
    await container.connections.open(connectionId, clock.now());
    const expiresAt = new Date(Date.now() + HOUR_MS).toISOString();
    await container.connections.authenticate(connectionId, { userId, workspaceId }, 5, { tokenId: crypto.randomUUID(), tokenVersion: 0, expiresAt });

    // Act
    await container.eventHub.forWorkspace(workspaceId).publish(notification, { userId });

    // Assert
    const messages = sender.sent.filter((s) => s.connectionId === connectionId).map((s) => JSON.parse(s.message) as { type: string; data: { details?: unknown } });
    expect(messages).toEqual([{ type: 'error', data: expect.objectContaining({ code: 'UNAUTHORIZED', details: { reason: 'token_expired' } }) }]);
    expect(sender.closed).toContain(connectionId);
  });
});
