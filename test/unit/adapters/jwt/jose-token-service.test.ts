import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JoseTokenService } from '../../../../shared/adapters/jwt/jose-token-service';
import { ManualClock } from '../../../support/builders';

const key = new TextEncoder().encode('s'.repeat(64));
const subject = { userId: 'user-1', role: 'editor' as const, tokenVersion: 3 };

/** A token with the service's issuer and audience, signed as the test says. */
const foreignToken = (claims: Record<string, unknown>, alg = 'HS256') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg })
    .setSubject('user-1')
    .setJti('j')
    .setIssuer('docservice')
    .setAudience('docservice-api')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);

const service = (clock = new ManualClock(new Date()), overrides: Partial<ConstructorParameters<typeof JoseTokenService>[0]> = {}) =>
  new JoseTokenService({ key: async () => key, issuer: 'docservice', audience: 'docservice-api', ttlSeconds: 3600, clock, ...overrides });

describe('JoseTokenService', () => {
  it('verifies the tokens it issues, with their claims', async () => {
    const tokens = service();

    const issued = await tokens.issue(subject);
    const claims = await tokens.verify(issued.token);

    expect(claims).toEqual(issued.claims);
    expect(claims).toMatchObject({ userId: 'user-1', role: 'editor', tokenVersion: 3 });
  });

  it('gives every token its own id', async () => {
    const tokens = service();

    const [a, b] = await Promise.all([tokens.issue(subject), tokens.issue(subject)]);

    expect(a.claims.jti).not.toBe(b.claims.jti);
  });

  it('refuses an expired token, and accepts it within a grace window', async () => {
    const clock = new ManualClock(new Date());
    const tokens = service(clock);
    const { token } = await tokens.issue(subject);
    clock.advanceSeconds(3600 + 30);

    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'The token has expired' });
    await expect(tokens.verify(token, { expiredGraceSeconds: 60 })).resolves.toMatchObject({ userId: 'user-1' });
  });

  it('refuses a token of another issuer or audience', async () => {
    const { token: otherIssuer } = await service(undefined, { issuer: 'someone-else' }).issue(subject);
    const { token: otherAudience } = await service(undefined, { audience: 'another-api' }).issue(subject);

    await expect(service().verify(otherIssuer)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(service().verify(otherAudience)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses an unsigned token', async () => {
    const unsigned = new UnsecuredJWT({ role: 'admin', tv: 0 })
      .setSubject('user-1')
      .setJti('j')
      .setIssuer('docservice')
      .setAudience('docservice-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();

    await expect(service().verify(unsigned)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a token signed with an algorithm outside the allow-list', async () => {
    const hs512 = await foreignToken({ role: 'admin', tv: 0 }, 'HS512');

    await expect(service().verify(hs512)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a token whose role is not one of the service', async () => {
    const odd = await foreignToken({ role: 'superuser', tv: 0 });

    await expect(service().verify(odd)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses to work with a key shorter than 32 bytes', async () => {
    const weak = service(undefined, { key: async () => new TextEncoder().encode('short') });

    await expect(weak.issue(subject)).rejects.toThrow(/at least 32 bytes/);
  });

  it('reads the key once and again only after a failed read', async () => {
    let reads = 0;
    const flaky = service(undefined, {
      key: async () => {
        reads++;
        if (reads === 1) throw new Error('secret store unavailable');
        return key;
      },
    });

    await expect(flaky.issue(subject)).rejects.toThrow('secret store unavailable');
    await flaky.issue(subject);
    await flaky.issue(subject);

    expect(reads).toBe(2);
  });
});
