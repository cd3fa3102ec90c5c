import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../../../shared/adapters/aws/clients';
import { localClientOptions } from '../../../../shared/local/local-clients';
import { startDynamoDbLocal, type RunningEmulator } from '../../../../shared/local/emulators/dynamodb-local';
import { freePort } from '../../../../shared/local/emulators/ports';

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

describe.runIf(process.platform === 'linux')('DynamoDB Local on a port another process took first', () => {
  let foreign: Server;
  let takenPort: number;

  beforeAll(async () => {
    // What the S3 or SQS emulator, started beside DynamoDB Local, looks like when it binds the same free port first.
    foreign = createServer((_request, response) => response.writeHead(404).end('Not Found'));
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    takenPort = (foreign.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => foreign.close(resolve));
  });

  it('starts on another port, and answers as DynamoDB there', async () => {
    // Arrange
    const offered = [takenPort];
    const ports = async () => offered.shift() ?? freePort();

    // Act
    const dynamodb = await startDynamoDbLocal({ ports });

    // Assert
    try {
      expect(new URL(dynamodb.endpoint).port).not.toBe(String(takenPort));
      const tables = await createDynamoDocumentClient(localClientOptions(dynamodb.endpoint)).send(new ListTablesCommand({}));
      expect(tables.TableNames).toEqual([]);
    } finally {
      await dynamodb.stop();
    }
  });

  it('refuses the port it was told to use when another process answers there, and says so', async () => {
    // Act
    const starting = startDynamoDbLocal({ port: takenPort });

    // Assert
    await expect(starting).rejects.toThrow(new RegExp(`port ${takenPort}`, 'u'));
  });
});
