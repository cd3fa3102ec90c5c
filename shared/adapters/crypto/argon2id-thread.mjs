/**
 * The thread side of argon2id-threads.ts. hash-wasm computes Argon2id in WebAssembly on the thread that calls it,
 * so the service calls it here, never on the event loop that answers requests.
 *
 * The threads' starter imports this module too, only to learn where it is: inside a Lambda bundle it is a chunk of
 * its own (it is reached through `import()` alone), whose file name only the bundle knows. Imported so, or on
 * another thread (a test runner's), it does nothing: it serves only a thread started with ARGON2ID_THREAD.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { argon2id } from 'hash-wasm';

export const ARGON2ID_THREAD = 'argon2id-thread';

export const argon2idThreadUrl = import.meta.url;

if (!isMainThread && workerData === ARGON2ID_THREAD && parentPort) {
  const port = parentPort;
  port.on('message', async ({ password, salt, params, length }) => {
    try {
      const key = await argon2id({
        password,
        salt,
        memorySize: params.m,
        iterations: params.t,
        parallelism: params.p,
        hashLength: length,
        outputType: 'binary',
      });
      port.postMessage({ key }, [key.buffer]);
    } catch (error) {
      port.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
