import type { ContainerParts } from '../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { absentParts } from './absent-parts';

/**
 * The parts every container needs, over a table client that is never called, plus `more`: for the wiring tests,
 * which build a container and look at what it holds without any I/O.
 */
export const bareContainerParts = (more: Partial<ContainerParts> = {}): ContainerParts => ({
  ...absentParts(),
  db: {} as ContainerParts['db'],
  tableName: 'docservice',
  env: parseEnv(commonEnvSchema, {}),
  healthProbes: [],
  ...more,
});
