import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSigningSecret, signatureHeaders } from '../../../../shared/domain/webhooks/signature';

const BODY = JSON.stringify({ id: 'evt_1', type: 'document.uploaded', data: { document_id: 'doc_1' } });

describe('generateSigningSecret', () => {
  it('makes a whsec_ secret of 32 random bytes in base64', () => {
    // Act
    const secret = generateSigningSecret();

    // Assert
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});

describe('signatureHeaders', () => {
  it('gives the id, the timestamp in whole seconds and a signature the Standard Webhooks library verifies', () => {
    // Arrange
    const secret = generateSigningSecret();
    const timestamp = new Date();

    // Act
    const headers = signatureHeaders({ id: 'msg_1', timestamp, body: BODY, secrets: [secret] });

    // Assert
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(JSON.parse(BODY));
  });

  it('signs once per secret, each signature verifying with its own secret', () => {
    // Arrange
    const previous = generateSigningSecret();
    const current = generateSigningSecret();

    // Act
    const headers = signatureHeaders({ id: 'msg_2', timestamp: new Date(), body: BODY, secrets: [current, previous] });

    // Assert
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    for (const [index, secret] of [current, previous].entries()) {
      const alone = { ...headers, 'webhook-signature': signatures[index] ?? '' };
      expect(() => new Webhook(secret).verify(BODY, alone)).not.toThrow();
    }
  });

  it('gives a signature that no longer verifies once the body is changed', () => {
    // Arrange
    const secret = generateSigningSecret();
    const headers = signatureHeaders({ id: 'msg_3', timestamp: new Date(), body: BODY, secrets: [secret] });

    // Act
    const verifyChanged = () => new Webhook(secret).verify(BODY.replace('doc_1', 'doc_2'), headers);

    // Assert
    expect(verifyChanged).toThrow('No matching signature found');
  });

  it('gives a signature no other secret verifies', () => {
    // Arrange
    const headers = signatureHeaders({ id: 'msg_4', timestamp: new Date(), body: BODY, secrets: [generateSigningSecret()] });

    // Act
    const verifyWithAnother = () => new Webhook(generateSigningSecret()).verify(BODY, headers);

    // Assert
    expect(verifyWithAnother).toThrow('No matching signature found');
  });
});
