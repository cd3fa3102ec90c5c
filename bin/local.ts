import { parseEnv } from '../shared/container/config';
import { localEnvSchema, startLocalRuntime } from '../shared/local/runtime';
import { logger } from '../shared/logger';

/**
 * The local runtime: DynamoDB Local, the S3 and SQS emulators and the gateway on PORT, all stopped together
 * on Ctrl-C or SIGTERM.
 */
const env = parseEnv(localEnvSchema);
const runtime = await startLocalRuntime(env);

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
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info('stopping', { signal });
  await runtime.stop();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
