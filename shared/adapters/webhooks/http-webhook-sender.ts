import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SourceAccessError } from '../../domain/sources/remote-folder';
import {
  DELIVERY_TIMEOUT_MS,
  MAX_RESPONSE_BYTES,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSendError,
  type WebhookSender,
} from '../../domain/webhooks/ports';
import { checkLiteralHost, createGuardedLookup, type AddressPolicy } from '../webdav/address-policy';

const USER_AGENT = 'docservice-webhooks/1';

/** Options of {@link HttpWebhookSender}. */
export interface HttpWebhookSenderOptions {
  /** The deadline of one attempt, connection to last byte read; {@link DELIVERY_TIMEOUT_MS} by default. */
  timeoutMs?: number;
}

type Outcome = Omit<WebhookResponse, 'durationMs'>;

const failed = (error: WebhookSendError): Outcome => ({ status: null, error, body: '' });

/** A refusal of the address policy, from the literal-host check or the guarded lookup; anything else is the wire. */
const failureOf = (error: unknown): WebhookSendError =>
  error instanceof SourceAccessError && error.failure === 'address_not_allowed' ? 'address_not_allowed' : 'connection_failed';

/**
 * Sends webhook deliveries over node:http and node:https. Every connection goes through the address policy
 * (literal hosts checked before connecting, names in the socket's lookup, so the address checked is the one
 * connected to); redirects are answers, not followed; no socket outlives its attempt.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly lookup: LookupFunction;
  private readonly timeoutMs: number;

  constructor(
    private readonly policy: AddressPolicy,
    options: HttpWebhookSenderOptions = {},
  ) {
    this.lookup = createGuardedLookup(policy);
    this.timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  }

  /** POSTs the request once; never throws for what the endpoint does (see {@link WebhookSender}). */
  async send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const outcome = await this.attempt(request);
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  private attempt(request: WebhookRequest): Promise<Outcome> {
    let url: URL;
    try {
      url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(failed('connection_failed'));
      checkLiteralHost(url, this.policy);
    } catch (error) {
      return Promise.resolve(failed(failureOf(error)));
    }
    return new Promise((resolve) => {
      const client = url.protocol === 'https:' ? https : http;
      const outgoing: ClientRequest = client.request(url, {
        method: 'POST',
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'content-length': Buffer.byteLength(request.body),
        },
        // A fresh agent per request without keep-alive: a dead endpoint keeps no pooled socket.
        agent: false,
        lookup: this.lookup,
      });
      let incoming: IncomingMessage | undefined;
      let settled = false;
      const finish = (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Whatever is left unread stays unread: the socket goes with the attempt.
        incoming?.destroy();
        outgoing.destroy();
        resolve(outcome);
      };
      // One deadline for the whole attempt: a slow connect, a silent receiver and a trickled body alike.
      const timer = setTimeout(() => finish(failed('timeout')), this.timeoutMs);
      outgoing.on('error', (error) => finish(failed(failureOf(error))));
      outgoing.on('response', (response) => {
        incoming = response;
        const status = response.statusCode ?? null;
        const chunks: Buffer[] = [];
        let length = 0;
        const answered = () => {
          const body = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          finish({ status, error: null, body });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          length += chunk.length;
          if (length >= MAX_RESPONSE_BYTES) answered();
        });
        response.on('end', answered);
        // The status was said: a body cut short (reset, closed) is still that answer, as far as it came.
        response.on('error', answered);
        response.on('close', answered);
      });
      outgoing.end(request.body);
    });
  }
}
