import { tmpdir } from 'node:os';
import { DEFAULT_SCRYPT_PARAMS, ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { NodeHostProbe } from '../adapters/node/host-probe';
import type { Clock } from '../domain/clock';
import type { MeteredRequests } from '../domain/usage/ports';
import type { AppContainer } from './app-container';
import type { ContainerParts } from './build-app-container';
import { requestLimits } from './request-limits';

/** What only the functions that serve requests (or create the operator's account) use. */
export type RequestServing = Pick<AppContainer, 'passwords' | 'limits' | 'loginAttempts' | 'host'>;

/**
 * The password hasher, the rate limits with their failed-login guard, and the host probe of the system metrics.
 * A container part (`serving: requestServing`) that the roots of the HTTP functions, the bootstrap and the local
 * runtime pass, so that no worker's bundle carries scrypt, the rate-limit store or the host probe.
 */
export function requestServing(
  parts: ContainerParts,
  clock: Clock,
  meter: (workspaceId: string, counts: MeteredRequests) => Promise<void>,
): RequestServing {
  return {
    passwords: new ScryptPasswordHasher({ ...DEFAULT_SCRYPT_PARAMS, N: 2 ** parts.env.PASSWORD_HASH_COST }),
    host: new NodeHostProbe(parts.host ?? { dataPath: tmpdir() }),
    ...requestLimits(parts, clock, meter),
  };
}
