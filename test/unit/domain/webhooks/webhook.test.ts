import { describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookRecord } from '../../../../shared/domain/webhooks/ports';
import { RETRY_DELAYS_SECONDS, retryDelaySeconds, signingSecrets, toPublicDelivery, toPublicWebhook } from '../../../../shared/domain/webhooks/webhook';

const anEndpoint = (secrets: WebhookRecord['secrets']): WebhookRecord => ({
  id: 'wh-1',
  workspace_id: 'w-1',
  url: 'https://hooks.example.com/in',
  events: ['document.uploaded'],
  description: null,
  active: true,
  disabled_reason: null,
  failing_since: null,
  secrets,
  created_by: 'admin-1',
  created_at: '2026-03-01T00:00:00.000Z',
  updated_at: '2026-03-01T00:00:00.000Z',
});

const NOW = new Date('2026-03-01T12:00:00.000Z');

describe('toPublicWebhook', () => {
  it('shows an endpoint without its secrets or its workspace', () => {
    // Arrange
    const endpoint = anEndpoint([{ sealed: 'sealed-1', created_at: '2026-03-01T00:00:00.000Z', expires_at: null }]);

    // Act
    const shown = toPublicWebhook(endpoint);

    // Assert
    expect(shown).not.toHaveProperty('secrets');
    expect(shown).not.toHaveProperty('workspace_id');
    expect(shown).toMatchObject({ id: 'wh-1', url: endpoint.url, events: ['document.uploaded'] });
  });
});

describe('toPublicDelivery', () => {
  it('lists a delivery without its payload or its workspace', () => {
    // Arrange
    const delivery = { id: 'msg_1', webhook_id: 'wh-1', workspace_id: 'w-1', payload: '{"data":{}}', state: 'succeeded' } as unknown as WebhookDelivery;

    // Act
    const shown = toPublicDelivery(delivery);

    // Assert
    expect(shown).toEqual({ id: 'msg_1', webhook_id: 'wh-1', state: 'succeeded' });
  });
});

describe('signingSecrets', () => {
  it('keeps the current secret and those still in their grace, and drops those that expired', () => {
    // Arrange
    const current = { sealed: 'current', created_at: '2026-03-01T11:00:00.000Z', expires_at: null };
    const inGrace = { sealed: 'grace', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T12:00:00.001Z' };
    const expired = { sealed: 'expired', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T12:00:00.000Z' };

    // Act
    const signing = signingSecrets(anEndpoint([current, inGrace, expired]), NOW);

    // Assert
    expect(signing.map((secret) => secret.sealed)).toEqual(['current', 'grace']);
  });
});

describe('retryDelaySeconds', () => {
  it('waits the base delay of each retry when the jitter is at its middle', () => {
    // Act
    const delays = RETRY_DELAYS_SECONDS.map((_, i) => retryDelaySeconds(i + 1, () => 0.5));

    // Assert
    expect(delays).toEqual([...RETRY_DELAYS_SECONDS]);
  });

  it('spreads a delay by at most a fifth either way', () => {
    // Act
    const spread = [retryDelaySeconds(2, () => 0), retryDelaySeconds(2, () => 1)];

    // Assert
    expect(spread).toEqual([240, 360]);
  });

  it('gives up after the last retry', () => {
    // Act
    const after = retryDelaySeconds(RETRY_DELAYS_SECONDS.length + 1, () => 0.5);

    // Assert
    expect(after).toBeNull();
  });

  it('never waits less than a second', () => {
    // Act
    const shortest = retryDelaySeconds(1, () => 0);

    // Assert
    expect(shortest).toBe(4);
  });

  it('spaces the retries over more than a day in all', () => {
    // Act
    const total = RETRY_DELAYS_SECONDS.reduce((sum, seconds) => sum + seconds, 0);

    // Assert
    expect(total).toBeGreaterThan(86_400);
  });
});
