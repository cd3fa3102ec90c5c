import { describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { secretContext } from '../../../../shared/domain/webhooks/manage-deps';
import { ROTATED_SECRET_GRACE_MS } from '../../../../shared/domain/webhooks/ports';
import { rotateWebhookSecret } from '../../../../shared/domain/webhooks/rotate-webhook-secret';
import { admin, input, LATER, NOW, refusal, setup } from './admin-setup';

describe('rotateWebhookSecret', () => {
  it('answers a new secret that signs from now on, and keeps the old one for 24 hours', async () => {
    // Arrange
    const { deps, webhooks, vault, setNow } = setup();
    const created = await createWebhook(deps, admin, input);
    const oldSealed = webhooks.byId.get(created.id)!.secrets[0]!.sealed;
    setNow(LATER);

    // Act
    const rotated = await rotateWebhookSecret(deps, created.id);

    // Assert
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated).not.toHaveProperty('secrets');
    const secrets = webhooks.byId.get(created.id)!.secrets;
    expect(secrets).toEqual([
      { sealed: expect.any(String), created_at: LATER.toISOString(), expires_at: null },
      { sealed: oldSealed, created_at: NOW.toISOString(), expires_at: new Date(LATER.getTime() + ROTATED_SECRET_GRACE_MS).toISOString() },
    ]);
    expect(await vault.open(secrets[0]!.sealed, secretContext('w-1', created.id))).toBe(rotated.secret);
  });

  it('drops secrets rotated out earlier that have expired, and keeps the expiry of one still in its grace', async () => {
    // Arrange
    const { deps, webhooks, setNow } = setup();
    const created = await createWebhook(deps, admin, input);
    const current = webhooks.byId.get(created.id)!.secrets[0]!;
    const expired = { sealed: 'sealed-expired', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T09:00:00.000Z' };
    const inGrace = { sealed: 'sealed-grace', created_at: '2026-02-01T00:00:00.000Z', expires_at: '2026-03-01T20:00:00.000Z' };
    await webhooks.update(created.id, { secrets: [current, inGrace, expired] });
    setNow(new Date('2026-03-01T12:00:00.000Z'));

    // Act
    await rotateWebhookSecret(deps, created.id);

    // Assert
    const secrets = webhooks.byId.get(created.id)!.secrets;
    expect(secrets.map((secret) => secret.sealed)).toEqual([expect.any(String), current.sealed, 'sealed-grace']);
    expect(secrets[1]!.expires_at).toBe('2026-03-02T12:00:00.000Z');
    expect(secrets[2]!.expires_at).toBe(inGrace.expires_at);
  });
});

describe('unknown endpoints', () => {
  const operations: [string, (deps: ReturnType<typeof setup>['deps']) => Promise<unknown>][] = [
    ['rotate', (deps) => rotateWebhookSecret(deps, 'wh-missing')],
  ];

  it.each(operations)('answers NOT_FOUND to %s of an unknown id, changing nothing', async (_name, operation) => {
    // Arrange
    const { deps, deliveries, deliveryQueue } = setup();

    // Act
    const error = await refusal(operation(deps));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect(error.details).toEqual({ resource: 'Webhook', id: 'wh-missing' });
    expect(deliveries.byId.size).toBe(0);
    expect(deliveryQueue.sent).toEqual([]);
  });
});
