/**
 * Which deployment a command works on: the local runtime's DATA_DIR or a deployment's table, named the same way
 * by every command that can do both (`--target`, `--data-dir`).
 */
import { resolve } from 'node:path';
import * as z from '../../shared/zod';
import { commonEnvSchema, envText, parseEnv, type CommonEnv } from '../../shared/container/kit/config';
import { localEnvSchema } from '../../shared/local/local-env';
import { usageError, type CliOption, type CliSetting, type CliValues } from './cli';

/** The options that choose the target; each command adds them to its own. */
export const TARGET_OPTIONS = {
  target: {
    type: 'string',
    valueName: 'local|aws',
    description:
      "local: the local runtime's data under DATA_DIR, with the runtime stopped; aws: a deployment, with AWS credentials and the variables below",
    defaultText: 'local',
  },
  'data-dir': {
    type: 'string',
    valueName: 'path',
    description: "the local runtime's DATA_DIR (--target local only)",
    defaultText: '$DATA_DIR, else ./.data',
  },
} as const satisfies Record<string, CliOption>;

/** The variables that place the target, for a command's `--help`; each command adds those it reads besides. */
export const TARGET_SETTINGS: readonly CliSetting[] = [
  { name: 'DATA_DIR', description: '--target local: the default of --data-dir', default: './.data' },
  { name: 'TABLE_NAME', description: '--target aws: the TableName output of the DocService-Api stack' },
  { name: 'AWS_REGION', description: "--target aws: the stack's region (else the SDK's own lookup)" },
];

export type Target = { kind: 'local'; dataDir: string } | { kind: 'aws' };

/**
 * The target the options name. Without `--target` it is local, unless TABLE_NAME is set: a shell prepared for a
 * deployment (as `npm run reindex` needed before it worked locally) is refused rather than quietly pointed at
 * DATA_DIR.
 */
export function chooseTarget(values: CliValues<typeof TARGET_OPTIONS>, env: NodeJS.ProcessEnv = process.env): Target {
  if (values.target === undefined && env['TABLE_NAME']) {
    throw usageError('TABLE_NAME is set: choose --target aws for that deployment, or --target local for DATA_DIR');
  }
  const target = values.target ?? 'local';
  if (target === 'aws') {
    if (values['data-dir'] !== undefined) throw usageError('--data-dir goes with --target local only');
    return { kind: 'aws' };
  }
  if (target !== 'local') throw usageError(`--target must be local or aws, not "${target}"`);
  const dataDir = values['data-dir'] ?? parseEnv(z.object({ DATA_DIR: localEnvSchema.shape.DATA_DIR }), env).DATA_DIR;
  return { kind: 'local', dataDir: resolve(dataDir) };
}

/** A deployment's table: TABLE_NAME, and AWS_REGION when the SDK's own lookup is not to decide. */
export function deploymentTable(env: NodeJS.ProcessEnv = process.env): { tableName: string; region: string | undefined } {
  const config = parseEnv(z.object({ TABLE_NAME: envText, AWS_REGION: z.optional(envText) }), env);
  return { tableName: config.TABLE_NAME, region: config.AWS_REGION };
}

/**
 * The service's settings a command's work reads (the password hasher's cost, the log's level and format), parsed
 * alone: the others belong to the runtime or the functions (a shell with the runtime's OIDC_* set would
 * otherwise ask the command for single sign-on).
 */
export function commandSettings(env: NodeJS.ProcessEnv = process.env): CommonEnv {
  const read = ['PASSWORD_HASH_COST', 'LOG_LEVEL', 'LOG_FORMAT'] as const;
  return parseEnv(commonEnvSchema, Object.fromEntries(read.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]]))));
}
