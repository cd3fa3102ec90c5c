import { currentLogContext } from './log-context';
import { jsonLogLine, LOG_LEVEL_ORDER, textLogLine, type LogLevel } from './log-lines';

/** Where entries go: the facade below adds the log context and picks one per process. */
export type LogWriter = (level: LogLevel, message: string, fields: Record<string, unknown>) => void;

const threshold = (env: NodeJS.ProcessEnv): number => LOG_LEVEL_ORDER[env['LOG_LEVEL'] as LogLevel] ?? LOG_LEVEL_ORDER.info;

/** Lines on stdout, warnings and errors on stderr, at LOG_LEVEL and above, as LOG_FORMAT says (both read on each entry). */
const consoleWriter =
  (env: NodeJS.ProcessEnv): LogWriter =>
  (level, message, fields) => {
    if (LOG_LEVEL_ORDER[level] < threshold(env)) return;
    const format = env['LOG_FORMAT'] === 'json' ? jsonLogLine : textLogLine;
    const line = format({ level, message, fields, time: new Date() });
    if (level === 'error' || level === 'warn') console.error(line);
    else console.log(line);
  };

/**
 * The writer for a process's environment outside Lambda: readable lines, or JSON lines with `LOG_FORMAT=json`
 * for a tool that parses them. In Lambda the entry hands in Powertools' writer ({@link useLogWriter}).
 */
export function logWriterFor(env: NodeJS.ProcessEnv = process.env): LogWriter {
  return consoleWriter(env);
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A logger whose entries carry the current log context's fields (`request_id`, `message_id`) and go to `write`. */
export function createLogger(write: () => LogWriter): Logger {
  const entry =
    (level: LogLevel) =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      // The call's own fields first (what a reader looks for), then the context's it does not set itself.
      const merged = { ...fields };
      for (const [key, value] of Object.entries(currentLogContext())) if (!(key in merged)) merged[key] = value;
      write()(level, message, merged);
    };
  return { debug: entry('debug'), info: entry('info'), warn: entry('warn'), error: entry('error') };
}

let writer: LogWriter | undefined;

/**
 * Makes `write` the writer of {@link logger} for the rest of the process. The Lambda entry hands in Powertools'
 * (shared/adapters/powertools/lambda-handler.ts), so that this module, below the adapters, imports none of them.
 */
export function useLogWriter(write: LogWriter): void {
  writer = write;
}

/**
 * The service's logger: `logger.info('ocr-worker: job done', { document_id, ms })`. Field names are snake_case,
 * like the records'. Every entry carries the fields of the log context it is written in (see log-context.ts).
 */
export const logger: Logger = createLogger(() => (writer ??= logWriterFor()));
