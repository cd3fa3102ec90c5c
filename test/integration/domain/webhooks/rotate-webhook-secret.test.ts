import { beforeAll, describe, expect, it } from 'vitest';
import { createWebhook } from '../../../../shared/domain/webhooks/create-webhook';
import { secretContext } from '../../../../shared/domain/webhooks/manage-deps';
import { ROTATED_SECRET_GRACE_MS } from '../../../../shared/domain/webhooks/ports';
import { rotateWebhookSecret } from '../../../../shared/domain/webhooks/rotate-webhook-secret';
import { input, LATER, NOW, refusal, webhookStores } from './webhook-stores';

describe('rotateWebhookSecret', () => {
  let stores: Awaited<ReturnType<typeof webhookStores>>;

  beforeAll(async () => {
    stores = await webhookStores();
  });

  it('answers a new secret that signs from now on, and keeps the old one for 24 hours', async () => {
    // Arrange
    const { deps, admin, webhooks, vault, setNow } = stores.setup();
    const created = await createWebhook(deps, admin, input);
    const oldSealed = (await webhooks.get(created.id))!.secrets[0]!.sealed;
    setNow(LATER);

    // Act
    const rotated = await rotateWebhookSecret(deps, created.id);

    // Assert
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated).not.toHaveProperty('secrets');
    const secrets = (await webhooks.get(created.id))!.secrets;
    expect(secrets).toEqual([
      { sealed: expect.any(String), created_at: LATER.toISOString(), expires_at: null },
      { sealed: oldSealed, created_at: NOW.toISOString(), expires_at: new Date(LATER.getTime() + ROTATED_SECRET_GRACE_MS).toISOString() },
    ]);
    expect(await vault.open(secrets[0]!.sealed, secretContext(deps.workspaceId, created.id))).toBe(rotated.secret);
  });

  it('drops secrets rotated out earlier that have expired, and keeps the expiry of one still in its grace', async () => {
    // Arrange
    const { deps, admin, webhooks, setNow } = stores.setup();
    const created = await createWebhook(deps, admin, input);
    const current = (await webhooks.get(created.id))!.secrets[0]!;
    const expired = { sealed: 'sealed-expired', created_at: '2099-02-01T00:00:00.000Z', expires_at: '2099-03-01T09:00:00.000Z' };
    const inGrace = { sealed: 'sealed-grace', created_at: '2099-02-01T00:00:00.000Z', expires_at: '2099-03-01T20:00:00.000Z' };
    await webhooks.update(created.id, { secrets: [current, inGrace, expired] });
    setNow(new Date('2099-03-01T12:00:00.000Z'));

    // Act
    await rotateWebhookSecret(deps, created.id);

    // Assert
    const secrets = (await webhooks.get(created.id))!.secrets;
    expect(secrets.map((secret) => secret.sealed)).toEqual([expect.any(String), current.sealed, 'sealed-grace']);
    expect(secrets[1]!.expires_at).toBe('2099-03-02T12:00:00.000Z');
    expect(secrets[2]!.expires_at).toBe(inGrace.expires_at);
  });

  it('answers NOT_FOUND for an unknown id', async () => {
    // Arrange
    const { deps } = stores.setup();

    // Act
    const error = await refusal(rotateWebhookSecret(deps, 'wh-missing'));

    // Assert
    expect({ code: error.code, details: error.details }).toEqual({ code: 'NOT_FOUND', details: { resource: 'Webhook', id: 'wh-missing' } });
  });

  it("answers NOT_FOUND for another workspace's endpoint, keeping its secret", async () => {
    // Arrange
    const theirs = stores.setup();
    const created = await createWebhook(theirs.deps, theirs.admin, input);
    const before = (await theirs.webhooks.get(created.id))!.secrets;
    const { deps } = stores.setup();

    // Act
    const error = await refusal(rotateWebhookSecret(deps, created.id));

    // Assert
    expect(error.code).toBe('NOT_FOUND');
    expect((await theirs.webhooks.get(created.id))!.secrets).toEqual(before);
  });
});
