/**
 * Resets a user's password as an operator: `npm run reset-password -- --username admin` (the local runtime's
 * DATA_DIR, the runtime stopped) or with `--target aws` (a deployment's table). The password is generated and
 * printed once, or read from stdin with `--password-stdin`; never from the command line. See `--help`.
 */
import { createDynamoDocumentClient, type ClientOptions } from '../shared/adapters/aws/clients';
import { accountStores } from '../shared/container/kit/accounts';
import { passwordHasher } from '../shared/container/kit/serving';
import { systemClock } from '../shared/domain/clock';
import { DynamoConnectionRepository } from '../shared/adapters/aws/dynamodb/connection-repository';
import { resetPassword } from '../shared/domain/auth/reset-password';
import { AppError } from '../shared/domain/errors';
import { passwordField } from '../shared/http/fields';
import { randomSecret } from '../shared/local/secrets';
import { CommandError, parseCommandLine, runCommand, usageError, type CommandSpec } from './support/cli';
import { checkLocalData, withLocalData } from './support/local-data';
import { chooseTarget, commandSettings, deploymentTable, TARGET_OPTIONS, TARGET_SETTINGS } from './support/target';

const options = {
  username: { type: 'string', valueName: 'name', description: 'the user whose password is reset (required; any case)' },
  'password-stdin': {
    type: 'boolean',
    description: 'read the new password from stdin (one line; asked twice, unseen, on a terminal) instead of generating one',
    default: false,
  },
  ...TARGET_OPTIONS,
} as const;

const spec = {
  name: 'reset-password',
  usage: 'npm run reset-password -- --username <name> [--password-stdin] [--target local|aws] [--data-dir <path>]',
  summary: [
    "Gives a user a new password, hashed as the service hashes it (Argon2id, PASSWORD_HASH_COST), and ends the user's",
    'sessions as a password change does: every token issued before stops working and their WebSocket connections',
    'are closed. Without --password-stdin a strong password is generated and printed once, on stdout; a password is',
    'never taken from the command line, where other users of the machine can read it.',
  ],
  options,
  settings: [
    {
      heading: 'Environment',
      entries: [
        { name: 'PASSWORD_HASH_COST', description: "Argon2id's passes at 19 MiB: set it as the service has it", default: '2' },
        ...TARGET_SETTINGS,
      ],
    },
  ],
  notes: [
    'Locally the runtime must be stopped: it remembers users and their sessions in memory, so a change made beside',
    'it would leave old tokens working until its restart. A DATA_DIR a running process holds is refused.',
    "Against a deployment the credentials (AWS_PROFILE or the SDK's other sources) must allow reading and updating",
    "the table's user and connection items. The admin's first password (DATA_DIR/secrets/admin-password locally,",
    'the AdminPasswordSecretArn secret in the cloud) is not changed: it no longer signs in.',
    'Exit codes: 0 done, 1 not done (unknown user, DATA_DIR in use, bad password), 2 wrong command line.',
  ],
} satisfies CommandSpec<typeof options>;

await runCommand(spec.name, async () => {
  const values = parseCommandLine(spec);
  if (values.username === undefined) throw usageError('--username is required');
  const target = chooseTarget(values);
  const username = values.username;
  // Where the reset cannot be made is said before the password is asked for.
  const deployment = target.kind === 'aws' ? deploymentTable() : null;
  if (target.kind === 'local') await checkLocalData(target.dataDir);
  const password = values['password-stdin'] ? checkedPassword(await readPassword(username)) : randomSecret(18);
  const reset = (dynamodb: ClientOptions, tableName: string) =>
    resetPassword(
      (() => {
        const table = { db: createDynamoDocumentClient(dynamodb), name: tableName };
        // The service's password hasher, and the connections whose sessions a password change ends.
        return {
          users: accountStores(table).users,
          passwords: passwordHasher(commandSettings()),
          connections: new DynamoConnectionRepository(table.db, table.name, systemClock),
          clock: systemClock,
        };
      })(),
      username,
      password,
    ).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'NOT_FOUND') throw new CommandError(`no user is named "${username}"`);
      throw error;
    });
  const user =
    target.kind === 'aws'
      ? await reset(deployment?.region ? { region: deployment.region } : {}, deployment!.tableName)
      : await withLocalData(target.dataDir, { files: false }, (data) => reset(data.dynamodb, data.tableName));
  console.log(`The password of ${user.username} is reset; every session of theirs has ended.`);
  if (!values['password-stdin']) console.log(`New password (shown once): ${password}`);
});

/** The service's own rule for a new password (8 to 256 characters), on one line. */
function checkedPassword(password: string): string {
  if (password.includes('\n')) throw new CommandError('the new password must be one line');
  const checked = passwordField().safeParse(password);
  if (!checked.success) throw new CommandError(`the new password ${checked.error.issues[0]!.message}`);
  return password;
}

/** Piped: the whole input without its final newline. A terminal: asked twice, without echo. */
async function readPassword(username: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/u, '');
  }
  const first = await askUnseen(`New password for ${username}: `);
  if ((await askUnseen('Again: ')) !== first) throw new CommandError('the two passwords differ');
  return first;
}

/** Reads one line from the terminal in raw mode, so that nothing typed is shown; Ctrl-C cancels. */
function askUnseen(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolveLine, reject) => {
    let typed: string[] = [];
    const finish = (error?: CommandError) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolveLine(typed.join(''));
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new CommandError('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed.push(char);
      }
    };
    stdin.on('data', onData);
  });
}
