import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a receiver got: its headers, its body as sent, and the body read as JSON. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the payload's fields as it expects them
  json: { id: string; type: string; created_at: string; workspace_id: string; data: Record<string, any> };
}

/** How a receiver answers its nth request (0-based): a status, or `hang` to answer nothing until it closes. */
export type Answer = number | 'hang';

/** An HTTP receiver of webhooks on loopback, recording what it got and answering as its script says. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The most requests it had open at once. */
  maxOpen(): number;
  /** The requests of one event type. */
  ofType(type: string): ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: (n: number, request: ReceivedWebhook) => Answer = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  let open = 0;
  let maxOpen = 0;
  const server = createServer((request, response) => {
    maxOpen = Math.max(maxOpen, ++open);
    response.once('close', () => open--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const webhook: ReceivedWebhook = { headers: request.headers, body, json: JSON.parse(body) };
      const status = answer(received.length, webhook);
      received.push(webhook);
      if (status === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    maxOpen: () => maxOpen,
    ofType: (type) => received.filter((webhook) => webhook.json.type === type),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
