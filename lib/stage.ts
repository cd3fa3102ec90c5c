import { readFileSync } from 'node:fs';
import { OIDC_CONTEXT, RATE_LIMIT_CONTEXT, type ContextReader } from './context';

/*
 * Stages: one deployment of both stacks, named (`-c stage=prod`), configured by a checked-in file
 * (`deploy/stages/<stage>.json`) whose keys are the context keys. A value given as context (`-c key=value`, or
 * cdk.json's `context`) overrides the file's. Without a stage the stacks keep the names they always had, so an
 * existing deployment is updated in place, not replaced.
 */

/** Every context key a stage file may set: those `bin/app.ts` reads. */
export const STAGE_SETTING_KEYS = [
  'corsOrigins',
  'registrationMode',
  'apiTokenMaxDays',
  'adminUsername',
  'adminEmail',
  'removalPolicy',
  'searchDomain',
  'alarmEmail',
  'textractTps',
  'tracingCollectorLayerArn',
  'edge',
  'domainName',
  'certificateArn',
  'hostedZoneId',
  'hostedZoneName',
  ...(Object.keys(RATE_LIMIT_CONTEXT) as (keyof typeof RATE_LIMIT_CONTEXT)[]),
  ...(Object.keys(OIDC_CONTEXT) as (keyof typeof OIDC_CONTEXT)[]),
  'oidcClientSecretArn',
  'plans',
  'defaultPlan',
] as const;

export type StageSettingKey = (typeof STAGE_SETTING_KEYS)[number];

/** A stage's name: lower-case letters and digits, a letter first, at most 16 (it goes into stack names). */
export const STAGE_NAME = /^[a-z][a-z0-9]{0,15}$/u;

/** A value as context may hold it: a JSON scalar, or a list of strings (corsOrigins), joined with commas. */
export type StageSettingValue = string | number | boolean | readonly string[];

export type StageSettings = Partial<Record<StageSettingKey, StageSettingValue>>;

const isSettingValue = (value: unknown): value is StageSettingValue =>
  typeof value === 'string' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  typeof value === 'boolean' ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/** The names of both stacks: `DocService-Stateful`/`DocService-Api` without a stage, `DocService-Prod-Api` with `prod`. */
export function stackNames(stage?: string): { stateful: string; api: string } {
  if (stage === undefined) return { stateful: 'DocService-Stateful', api: 'DocService-Api' };
  const title = stage.charAt(0).toUpperCase() + stage.slice(1);
  return { stateful: `DocService-${title}-Stateful`, api: `DocService-${title}-Api` };
}

/** The stage from context `stage`, checked; undefined when none is given. */
export function stageFromContext(get: ContextReader): string | undefined {
  const value = get('stage');
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || !STAGE_NAME.test(value)) {
    throw new Error(`Context "stage" must be lower-case letters and digits, a letter first, at most 16, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Checks a stage file's content: an object of known keys with scalar values (or a list of strings). The error
 * names the file and each bad key.
 */
export function parseStageSettings(content: unknown, source: string): StageSettings {
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    throw new Error(`Stage file ${source}: must be a JSON object of context keys`);
  }
  const known = new Set<string>([...STAGE_SETTING_KEYS, '$schema']);
  const entries = Object.entries(content);
  const problems: string[] = [];
  const unknown = entries.map(([key]) => key).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    problems.push(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')} (a stage file sets context keys: see \`npx tsx bin/app.ts --help\`)`);
  }
  for (const [key, value] of entries) {
    if (key === '$schema' || !known.has(key) || isSettingValue(value)) continue;
    problems.push(`"${key}" must be a string, number, boolean or list of strings`);
  }
  if (problems.length > 0) throw new Error(`Stage file ${source}: ${problems.join('; ')}`);
  return Object.fromEntries(entries.filter(([key]) => key !== '$schema')) as StageSettings;
}

/** Reads and checks `<directory>/<stage>.json`; a missing file or bad JSON is an error naming the file. */
export function readStageFile(directory: URL, stage: string): StageSettings {
  const file = new URL(`${stage}.json`, directory);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`Context "stage" is "${stage}" but there is no stage file ${file.pathname} (copy deploy/stages/dev.json)`);
  }
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch (error) {
    throw new Error(`Stage file ${file.pathname} is not JSON: ${(error as Error).message}`);
  }
  return parseStageSettings(content, file.pathname);
}

/**
 * Context with the stage file beneath it: a key given as context (on the command line, or in cdk.json) wins,
 * the stage file's value comes next, absent otherwise.
 */
export function withStageSettings(get: ContextReader, settings: StageSettings): ContextReader {
  return (key) => {
    const given = get(key);
    if (given !== undefined && given !== null && given !== '') return given;
    return (settings as Record<string, unknown>)[key];
  };
}
