import { tmpdir } from 'node:os';
import { DEFAULT_SCRYPT_PARAMS, ScryptPasswordHasher } from '../../adapters/crypto/scrypt-password-hasher';
import { NodeHostProbe } from '../../adapters/node/host-probe';
import type { CommonEnv } from './config';

/** scrypt at PASSWORD_HASH_COST: for what checks or sets passwords (auth, users, workspaces, the bootstrap). */
export const passwordHasher = (env: Pick<CommonEnv, 'PASSWORD_HASH_COST'>) => new ScryptPasswordHasher({ ...DEFAULT_SCRYPT_PARAMS, N: 2 ** env.PASSWORD_HASH_COST });

/** What the system metrics report on: the data path (default: the temp dir, Lambda's /tmp) and a memory bound. */
export type HostOptions = ConstructorParameters<typeof NodeHostProbe>[0];

/** The answering instance, for the system metrics. */
export const hostProbe = (options: HostOptions = { dataPath: tmpdir() }) => new NodeHostProbe(options);
