import { systemClock, type Clock } from '../../domain/clock';
import { commonEnvSchema, parseEnv, type CommonEnv } from './config';
import { awsTable } from './aws-table';
import type { Table } from './table';

/** What a worker's entry (a queue's, a stream's or a schedule's function) composes its deps from; no JWT key. */
export interface AwsWorker {
  table: Table;
  clock: Clock;
  /** The settings both runtimes read (plans, network policies), parsed at init. */
  env: CommonEnv;
}

export const awsWorker = (env: NodeJS.ProcessEnv = process.env): AwsWorker => ({ table: awsTable(env), clock: systemClock, env: parseEnv(commonEnvSchema, env) });
