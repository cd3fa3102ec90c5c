import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { SubsegmentDocument } from './subsegment';

/** Every datagram the daemon takes starts with this line. */
const DATAGRAM_HEADER = '{"format":"json","version":1}\n';
/** Where the daemon listens when AWS_XRAY_DAEMON_ADDRESS is not set (X-Ray's default). */
const DEFAULT_ADDRESS = { host: '127.0.0.1', port: 2000 };

export interface DaemonAddress {
  host: string;
  port: number;
}

/**
 * AWS_XRAY_DAEMON_ADDRESS, which Lambda sets: `host:port`, or `tcp:host:port udp:host:port` (segments go over
 * UDP, so the `udp:` one). Anything else is X-Ray's default, so that a bad value costs traces, never the function.
 */
export function parseDaemonAddress(value: string | undefined): DaemonAddress {
  if (!value) return DEFAULT_ADDRESS;
  const parts = value.trim().split(/\s+/u);
  const plain = parts.length === 1 && !parts[0]!.startsWith('tcp:') ? parts[0] : undefined;
  const udp = parts.find((part) => part.startsWith('udp:'))?.slice('udp:'.length) ?? plain;
  const match = udp ? /^(.+):(\d{1,5})$/u.exec(udp) : null;
  const port = match ? Number(match[2]) : NaN;
  return match && port > 0 && port < 65536 ? { host: match[1]!.replace(/^\[(.*)\]$/u, '$1'), port } : DEFAULT_ADDRESS;
}

/**
 * Sends subsegment documents to the X-Ray daemon, one UDP datagram each. A send that fails is dropped: tracing
 * never fails the function. `flush` waits for the sends under way, so that none is left in the socket when
 * Lambda freezes the environment after the invocation.
 */
export class XRayDaemonClient {
  private socket: Socket | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly address: DaemonAddress) {}

  send(document: SubsegmentDocument): void {
    const sent = new Promise<void>((resolve) => {
      try {
        const socket = (this.socket ??= this.openSocket());
        socket.send(DATAGRAM_HEADER + JSON.stringify(document), this.address.port, this.address.host, () => resolve());
      } catch {
        resolve(); // a socket that cannot send loses the trace, not the invocation
      }
    });
    this.pending.add(sent);
    void sent.then(() => this.pending.delete(sent));
  }

  /** Resolves when every send so far has left, or after `timeoutMs`. */
  async flush(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all(this.pending), timeout]);
    clearTimeout(timer);
  }

  private openSocket(): Socket {
    const socket = createSocket(isIPv6(this.address.host) ? 'udp6' : 'udp4');
    socket.on('error', () => undefined); // a datagram lost is a trace lost, nothing more
    socket.unref();
    return socket;
  }
}
