import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import type { LogLevel } from '../../observability/log-lines';
import type { LogWriter } from '../../observability/logger';

/**
 * The service name of every Lambda's logs, metrics and traces: the stack sets POWERTOOLS_SERVICE_NAME on each
 * function (lib/constructs/app-function.ts); a bundle run elsewhere says `docservice`.
 */
export const serviceName = (env: NodeJS.ProcessEnv = process.env): string => env['POWERTOOLS_SERVICE_NAME'] || 'docservice';

const LEVELS = new Set(['DEBUG', 'INFO', 'WARN', 'ERROR']);

/**
 * The Powertools logger of a Lambda: JSON lines with level, timestamp, service, the function's name, request
 * and cold start (once the handler wrapper gave it the invocation's context) and the X-Ray trace id. Its level
 * is LOG_LEVEL (info when unset); Lambda's own log level setting (AWS_LAMBDA_LOG_LEVEL) wins, as Powertools rules.
 */
export function createPowertoolsLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const level = (env['LOG_LEVEL'] ?? 'info').toUpperCase();
  return new Logger({ serviceName: serviceName(env), logLevel: (LEVELS.has(level) ? level : 'INFO') as 'INFO' });
}

let instance: Logger | undefined;

/** The process's one Powertools logger, made on first use (only in Lambda: see shared/observability/logger.ts). */
export const powertoolsLogger = (): Logger => (instance ??= createPowertoolsLogger());

/** Gives the logger the invocation's Lambda context (function name, request id, cold start) for its lines. */
export const addLambdaContext = (context: Context): void => powertoolsLogger().addContext(context);

/** Writes one entry through `logger`. */
export function writeThroughPowertools(logger: Logger, level: LogLevel, message: string, fields: Record<string, unknown>): void {
  logger[level](message, fields);
}

/** The logger's writer in Lambda: each entry through the process's Powertools logger. */
export const powertoolsLogWriter: LogWriter = (level, message, fields) => writeThroughPowertools(powertoolsLogger(), level, message, fields);
