import { readdir, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal, type RunningEmulator } from '../../shared/local/emulators/dynamodb-local';

/** The arguments of the process listening as DynamoDB Local on `port`, from /proc. */
async function dynamoDbLocalArgv(port: string): Promise<string[]> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const argv = await readFile(`/proc/${entry}/cmdline`, 'utf8').then((text) => text.split('\0'), () => []);
    if (argv.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && argv.some((arg, i) => arg === '-port' && argv[i + 1] === port)) return argv;
  }
  return [];
}

describe.runIf(process.platform === 'linux')('DynamoDB Local as the runtime starts it', () => {
  let dynamodb: RunningEmulator;

  beforeAll(async () => {
    dynamodb = await startDynamoDbLocal();
  });

  afterAll(async () => {
    await dynamodb?.stop();
  });

  it('runs its JVM with the serial collector, the C1 compiler alone and a bounded heap, so it competes less for the cores', async () => {
    // Act
    const argv = await dynamoDbLocalArgv(new URL(dynamodb.endpoint).port);

    // Assert
    expect(argv).toEqual(expect.arrayContaining(['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xmx1g']));
  });
});
