/**
 * How a log entry is written outside Lambda: a readable line for a terminal (the default of the local runtime),
 * or the JSON line a tool can parse (`LOG_FORMAT=json`). In Lambda, Powertools writes the JSON (powertools-logger.ts).
 */

/** The values of LOG_LEVEL, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_LEVEL_ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** The values of LOG_FORMAT: readable lines, or one JSON object per line. */
export const LOG_FORMATS = ['text', 'json'] as const;

/** One entry: the call's fields after the log context's, so a call can say more than its context. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  fields: Record<string, unknown>;
  time: Date;
}

const errorFields = (error: Error): Record<string, unknown> => ({ name: error.name, message: error.message, stack: error.stack });

/** The JSON line of an entry: `level`, `time`, `message`, then its fields (Errors as name, message and stack). */
export function jsonLogLine({ level, message, fields, time }: LogEntry): string {
  const entry = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value instanceof Error ? errorFields(value) : value]));
  return JSON.stringify({ level, time: time.toISOString(), message, ...entry });
}

/** A plain word stays as it is; anything with spaces, quotes or `=` is quoted, so `key=value` pairs stay apart. */
const PLAIN = /^[^\s"=]+$/;

const textValue = (value: unknown): string => {
  if (value instanceof Error) return JSON.stringify(`${value.name}: ${value.message}`);
  if (typeof value === 'string') return PLAIN.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? String(value);
};

const two = (n: number): string => String(n).padStart(2, '0');

/** The local wall-clock time, to the millisecond: a terminal's reader knows the day. */
const clock = (time: Date): string =>
  `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}.${String(time.getMilliseconds()).padStart(3, '0')}`;

/**
 * The readable line of an entry: `03:45:12.123 INFO  ocr-worker: job done document_id=d1 ms=812`. Objects are
 * written as compact JSON. An error entry is followed by the stack of the Error it carries, indented, since a
 * stack is what its reader needs.
 */
export function textLogLine({ level, message, fields, time }: LogEntry): string {
  const pairs = Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}=${textValue(value)}`)
    .join('');
  const line = `${clock(time)} ${level.toUpperCase().padEnd(5)} ${message}${pairs}`;
  const error = level === 'error' ? Object.values(fields).find((value): value is Error => value instanceof Error) : undefined;
  const stack = error?.stack?.split('\n').slice(1).join('\n');
  return stack ? `${line}\n${stack}` : line;
}
