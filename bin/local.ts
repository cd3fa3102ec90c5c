import { parseEnv } from '../shared/container/kit/config';
import { localEnvSchema, type LocalEnv } from '../shared/local/local-env';
import { startLocalRuntime } from '../shared/local/runtime';
import { logger } from '../shared/observability/logger';
import { parseCommandLine, refuseConfiguration, type CommandSpec } from './support/cli';

const spec = {
  name: 'local',
  usage: 'npm start   (or: npm run start:local, which installs nothing first)',
  summary: [
    'Starts the service on one machine: DynamoDB Local, the S3 and SQS emulators and the API with /ws on PORT, all',
    'stopped together on Ctrl-C or SIGTERM. It takes no options: it is configured by environment variables, each',
    'checked at start (a wrong one stops it with one line naming it, exit code 1).',
  ],
  options: {},
  settings: [
    {
      heading: 'Environment (the main ones; all of them: docs/configuration.md)',
      entries: [
        { name: 'PORT', description: 'HTTP and /ws port', default: '8080' },
        { name: 'HOST', description: 'interface to listen on (0.0.0.0 to serve the network)', default: '127.0.0.1' },
        { name: 'DATA_DIR', description: 'everything that persists', default: './.data' },
        { name: 'ADMIN_USERNAME', description: 'the first admin, created on start when missing', default: 'admin' },
        { name: 'ADMIN_PASSWORD', description: 'its password, used only when it is created', default: 'generated, printed once, kept in DATA_DIR/secrets/admin-password' },
        { name: 'ADMIN_EMAIL', description: 'its email', default: '<ADMIN_USERNAME>@docservice.local' },
        { name: 'REGISTRATION_MODE', description: 'workspace (a sign-up gets a new workspace) or closed', default: 'workspace' },
        { name: 'PASSWORD_HASH_COST', description: "Argon2id's passes at 19 MiB (1..10)", default: '2' },
        { name: 'LOG_LEVEL', description: 'debug, info, warn or error', default: 'info' },
        { name: 'LOG_FORMAT', description: 'text or json', default: 'text' },
      ],
    },
  ],
  notes: ['A forgotten password: stop the runtime, then npm run reset-password -- --username <name>.'],
} satisfies CommandSpec<Record<string, never>>;

/*
 * The local runtime: DynamoDB Local, the S3 and SQS emulators and the gateway on PORT, all stopped together
 * on Ctrl-C or SIGTERM. A wrong variable stops the start with one line naming it, and exit code 1.
 */
parseCommandLine(spec);
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
  `  console:   ${runtime.url}/`,
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
