import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../../shared/local/emulators/dynamodb-local';
import { startEmulatorThread } from '../../../../shared/local/emulators/emulator-thread';

const startThrowingEmulator = () =>
  startEmulatorThread({ name: 'throwing emulator', source: new URL('../../../support/throwing-emulator-thread.ts', import.meta.url), settings: {} });

/** Time for `/boom`'s timer to fire and, without the thread's handler, for the thread to end. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe('an emulator thread', () => {
  let emulator: RunningEmulator | undefined;

  afterEach(async () => {
    await emulator?.stop();
    emulator = undefined;
  });

  it('goes on serving after an error thrown outside a request handler', async () => {
    // Arrange
    emulator = await startThrowingEmulator();
    expect((await fetch(`${emulator.endpoint}/boom`)).status).toBe(200);
    await settle();

    // Act
    const after = await fetch(`${emulator.endpoint}/ok`);

    // Assert
    expect(after.status).toBe(200);
  });

  it('still stops when asked after surviving an error thrown outside a request handler, freeing its port', async () => {
    // Arrange: an emulator that survived the error and still serves.
    emulator = await startThrowingEmulator();
    await fetch(`${emulator.endpoint}/boom`);
    await settle();
    const { endpoint } = emulator;
    expect((await fetch(`${endpoint}/ok`)).status).toBe(200);

    // Act
    await emulator.stop();

    // Assert
    await expect(fetch(`${endpoint}/ok`)).rejects.toThrow();
  });
});
