import { createSocket } from 'node:dgram';
import type { SubsegmentDocument } from '../../shared/adapters/xray/subsegment';
import { until } from './until';

/** What the X-Ray daemon would receive: each datagram's header line and document, parsed. */
export interface RecordingDaemon {
  /** `host:port`, as AWS_XRAY_DAEMON_ADDRESS takes it. */
  address: string;
  port: number;
  /** Every document received so far, in order. */
  documents: SubsegmentDocument[];
  /** Every datagram's first line (the daemon's format header). */
  headers: string[];
  /** Waits (bounded) until `count` documents satisfy `accept`, and answers them. */
  received(accept: (document: SubsegmentDocument) => boolean, count?: number): Promise<SubsegmentDocument[]>;
  close(): Promise<void>;
}

/** A UDP listener on loopback standing where Lambda's X-Ray daemon listens. */
export async function startRecordingDaemon(): Promise<RecordingDaemon> {
  const socket = createSocket('udp4');
  const documents: SubsegmentDocument[] = [];
  const headers: string[] = [];
  socket.on('message', (datagram) => {
    const text = datagram.toString('utf8');
    const newline = text.indexOf('\n');
    headers.push(text.slice(0, newline));
    documents.push(JSON.parse(text.slice(newline + 1)) as SubsegmentDocument);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    port,
    documents,
    headers,
    async received(accept, count = 1) {
      await until(() => documents.filter(accept).length >= count, 5000, `${count} X-Ray document(s)`);
      return documents.filter(accept);
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
