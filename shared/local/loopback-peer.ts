import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The uid owning the other end of a TCP connection within this machine, from the kernel's socket tables; null if unknown. */
function peerUid(socket: Socket): number | null {
  const wanted = `${hexPort(socket.remotePort)}|${hexPort(socket.localPort)}`;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid ...: the peer's own row has its port as local.
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(':').at(-1);
      const remote = fields[2]?.split(':').at(-1);
      if (`${local}|${remote}` === wanted && fields[7] !== undefined) return Number(fields[7]);
    }
  }
  return null;
}

const hexPort = (port: number | undefined): string => (port ?? 0).toString(16).toUpperCase().padStart(4, '0');

const verdicts = new WeakMap<Socket, boolean>();

/**
 * Whether the other end of `socket` is a process of this machine running as this process's OS user. The
 * emulators trust any client that reaches them (s3rver serves anonymous requests, the SQS emulator checks no
 * signature), so on a machine shared with other users loopback alone is not enough. Decided once per connection;
 * where the kernel's tables cannot be read (not Linux) it falls back to loopback alone.
 */
export function isOwnUserPeer(socket: Socket): boolean {
  const known = verdicts.get(socket);
  if (known !== undefined) return known;
  // A connection from this machine to one of its own addresses (HOST set to a LAN address) is local too.
  let own = LOOPBACK.test(socket.remoteAddress ?? '') || (socket.remoteAddress !== undefined && socket.remoteAddress === socket.localAddress);
  if (own && typeof process.getuid === 'function') {
    const uid = peerUid(socket);
    own = uid === null ? !isLinux() : uid === process.getuid();
  }
  verdicts.set(socket, own);
  return own;
}

const isLinux = (): boolean => process.platform === 'linux';

/** Closes every connection to `server` that does not come from this OS user on this machine, before it is read. */
export function admitOwnUserOnly(server: Server): void {
  server.prependListener('connection', (socket: Socket) => {
    if (!isOwnUserPeer(socket)) socket.destroy();
  });
}
