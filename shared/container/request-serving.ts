import type { DynamoRateLimitStore } from '../adapters/aws/dynamodb/rate-limit-store';
import type { Clock } from '../domain/clock';
import type { LoginAttemptGuard, RateLimitStore } from '../domain/limits/ports';
import type { PasswordHasher } from '../domain/users/ports';
import type { HostProbe } from '../domain/system/ports';
import type { CommonEnv } from './config';
import { rateLimits, type HttpGate, type RequestMeter } from './kit/request-gate';
import { hostProbe, passwordHasher, type HostOptions } from './kit/serving';
import type { Table } from './kit/table';

/** What only the functions that serve requests (or create the operator's account) use. */
export interface RequestServing {
  passwords: PasswordHasher;
  limits: HttpGate['limits'];
  loginAttempts: LoginAttemptGuard;
  host: HostProbe;
}

/**
 * The password hasher, the rate limits with their failed-login guard, and the host probe of the system metrics:
 * a part of the wide container (`serving: requestServing`) that its roots pass when they serve requests.
 */
export function requestServing(
  parts: { table: Table; env: CommonEnv; host?: HostOptions | undefined; decorateRateLimits?: ((store: DynamoRateLimitStore) => RateLimitStore) | undefined },
  clock: Clock,
  meter: RequestMeter,
): RequestServing {
  return {
    passwords: passwordHasher(parts.env),
    host: hostProbe(parts.host),
    ...rateLimits(parts.table, parts.env, clock, meter, parts.decorateRateLimits),
  };
}
