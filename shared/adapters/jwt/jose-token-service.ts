import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../../domain/clock';
import { unauthorized } from '../../domain/errors';
import type { IssuedToken, TokenClaims, TokenService, VerifyOptions } from '../../domain/auth/ports';
import { ROLES, type Role } from '../../domain/principal';

const ALGORITHM = 'HS256';
const MIN_KEY_BYTES = 32;

export interface JoseTokenServiceOptions {
  /** Resolves the HMAC key; called once, so a key fetched from a secret store is read once per process. */
  key: () => Promise<Uint8Array>;
  issuer: string;
  audience: string;
  ttlSeconds: number;
  clock: Clock;
}

/** What a container settles for its token service; the root that issues tokens brings the key (`joseTokens`). */
export type TokenSettings = Omit<JoseTokenServiceOptions, 'key'>;

/** The token service part of a container that issues and accepts tokens: JoseTokenService with `key`. */
export const joseTokens =
  (key: JoseTokenServiceOptions['key']) =>
  (settings: TokenSettings): TokenService =>
    new JoseTokenService({ key, ...settings });

/** HS256 JWTs signed and verified with jose; only HS256 is accepted, with iss, aud and exp enforced. */
export class JoseTokenService implements TokenService {
  private keyPromise: Promise<Uint8Array> | undefined;

  constructor(private readonly options: JoseTokenServiceOptions) {}

  async issue(subject: { userId: string; role: Role; tokenVersion: number }): Promise<IssuedToken> {
    const issuedAtSeconds = Math.floor(this.options.clock.now().getTime() / 1000);
    const expiresAtSeconds = issuedAtSeconds + this.options.ttlSeconds;
    const jti = crypto.randomUUID();
    const token = await new SignJWT({ role: subject.role, tv: subject.tokenVersion })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject.userId)
      .setJti(jti)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(expiresAtSeconds)
      .sign(await this.key());
    return {
      token,
      claims: {
        userId: subject.userId,
        role: subject.role,
        tokenVersion: subject.tokenVersion,
        jti,
        issuedAt: new Date(issuedAtSeconds * 1000),
        expiresAt: new Date(expiresAtSeconds * 1000),
      },
    };
  }

  async verify(token: string, options: VerifyOptions = {}): Promise<TokenClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.key(), {
        algorithms: [ALGORITHM],
        issuer: this.options.issuer,
        audience: this.options.audience,
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        currentDate: this.options.clock.now(),
        clockTolerance: options.expiredGraceSeconds ?? 0,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('The token has expired');
      throw unauthorized('The token is not valid');
    }
    const { sub, jti, iat, exp, role, tv } = payload;
    if (!ROLES.includes(role as Role) || typeof tv !== 'number' || !sub || !jti || !iat || !exp) {
      throw unauthorized('The token is not valid');
    }
    return {
      userId: sub,
      role: role as Role,
      tokenVersion: tv,
      jti,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
    };
  }

  private key(): Promise<Uint8Array> {
    this.keyPromise ??= this.options.key().then((key) => {
      if (key.byteLength < MIN_KEY_BYTES) throw new Error(`The JWT signing key must be at least ${MIN_KEY_BYTES} bytes`);
      return key;
    });
    // A failed fetch (a secret store hiccup) must not poison the process: the next request tries again.
    this.keyPromise.catch(() => {
      this.keyPromise = undefined;
    });
    return this.keyPromise;
  }
}
