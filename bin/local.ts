import { ConfigurationError, parseEnv } from '../shared/container/config';
import { localEnvSchema, type LocalEnv } from '../shared/local/local-env';
import { startLocalRuntime } from '../shared/local/runtime';
import { logger } from '../shared/logger';

/** A configuration error ends the start as its one line, with exit code 1; anything else is thrown on, stack and all. */
function refuseConfiguration(error: unknown): never {
  if (!(error instanceof ConfigurationError)) throw error;
  console.error(error.message);
  process.exit(1);
}

/*
 * The local runtime: DynamoDB Local, the S3 and SQS emulators and the gateway on PORT, all stopped together
 * on Ctrl-C or SIGTERM. A wrong variable stops the start with one line naming it, and exit code 1.
 */
let env: LocalEnv;
try {
  env = parseEnv(localEnvSchema);
} catch (error) {
  refuseConfiguration(error);
}
// Some settings are checked only as the runtime is built (the OIDC ones, together); it stops what it started first.
const runtime = await startLocalRuntime(env).catch(refuseConfiguration);

const lines = [
  `docservice is ready at ${runtime.url}`,
  `  health:    ${runtime.url}/api/health`,
  `  websocket: ${runtime.url.replace(/^http/, 'ws')}/ws`,
  `  data:      ${env.DATA_DIR}`,
  `  admin:     ${runtime.admin.username}`,
];
if (runtime.admin.generated) lines.push(`  password:  ${runtime.admin.password}   (generated once; kept in ${runtime.admin.passwordFile})`);
else if (runtime.admin.passwordFile) lines.push(`  password:  see ${runtime.admin.passwordFile}`);
console.log(lines.join('\n'));

let stopping = false;
const shutdown = async (reason: string, code: number) => {
  if (stopping) return;
  stopping = true;
  logger.info('stopping', { reason });
  // Bounded: a stop that hangs must not keep a broken process up. The emulators' processes end with this one.
  setTimeout(() => process.exit(code), 15_000).unref();
  await runtime.stop().catch((error: unknown) => logger.error('stopping failed', { error }));
  process.exit(code);
};
process.on('SIGINT', () => void shutdown('SIGINT', 0));
process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
process.on('SIGHUP', () => void shutdown('SIGHUP', 0));
// A fault that escaped every handler leaves the process in an unknown state: it stops cleanly and exits non-zero
// rather than serving on, so a supervisor restarts it.
const crash = (kind: string) => (error: unknown) => {
  logger.error(`${kind}: stopping the runtime`, { error });
  void shutdown(kind, 1);
};
process.on('uncaughtException', crash('uncaught exception'));
process.on('unhandledRejection', crash('unhandled rejection'));
