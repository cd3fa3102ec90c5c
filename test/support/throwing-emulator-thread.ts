/**
 * A minimal emulator for the emulator-thread tests: `/boom` answers 200 and then throws outside any request
 * handler (from a timer, as a file stream erroring after its response began would), `/ok` answers 200.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveOnThisThread } from '../../shared/local/emulators/emulator-thread';

await serveOnThisThread(async () => {
  const server = createServer((request, response) => {
    if (request.url === '/boom') {
      response.end('boom');
      setTimeout(() => {
        throw new Error('thrown outside a request handler');
      }, 10);
      return;
    }
    response.statusCode = request.url === '/ok' ? 200 : 404;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
