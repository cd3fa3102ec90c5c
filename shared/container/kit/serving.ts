import { tmpdir } from 'node:os';
import { Argon2idPasswordHasher, DEFAULT_ARGON2ID_PARAMS } from '../../adapters/crypto/argon2id-password-hasher';
import { NodeHostProbe } from '../../adapters/node/host-probe';
import type { CommonEnv } from './config';

/** Argon2id, with PASSWORD_HASH_COST passes when set: for what checks or sets passwords (auth, users, workspaces, the bootstrap). */
export const passwordHasher = (env: Pick<CommonEnv, 'PASSWORD_HASH_COST'>) =>
  new Argon2idPasswordHasher({ ...DEFAULT_ARGON2ID_PARAMS, t: env.PASSWORD_HASH_COST ?? DEFAULT_ARGON2ID_PARAMS.t });

/** What the system metrics report on: the data path (default: the temp dir, Lambda's /tmp) and a memory bound. */
export type HostOptions = ConstructorParameters<typeof NodeHostProbe>[0];

/** The answering instance, for the system metrics. */
export const hostProbe = (options: HostOptions = { dataPath: tmpdir() }) => new NodeHostProbe(options);
