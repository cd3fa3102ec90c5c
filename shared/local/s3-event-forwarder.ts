import type { S3Event } from 'aws-lambda';
import { STAGING_PREFIX } from '../manifest';
import { logger } from '../observability/logger';

/**
 * The local stand-in for the bucket's event notification: object-created events under the staging prefix go
 * to the ingest queue as S3 would send them (the same filter the cloud stack configures), so the same ingest
 * handler finishes presigned uploads in both runtimes. Events that arrive before the queue is known are held.
 */
export class S3EventForwarder {
  private send: ((event: S3Event) => Promise<void>) | undefined;
  private readonly held: S3Event[] = [];

  /** Starts sending, to the ingest queue through `send`. */
  connect(send: (event: S3Event) => Promise<void>): void {
    this.send = send;
    for (const event of this.held.splice(0)) this.forward(event);
  }

  forward(event: S3Event): void {
    const staged = event.Records.filter(
      (record) => record.eventName.startsWith('ObjectCreated:') && record.s3.object.key.startsWith(STAGING_PREFIX),
    );
    if (!staged.length) return;
    if (!this.send) {
      this.held.push(event);
      return;
    }
    this.send({ ...event, Records: staged }).catch((error: unknown) =>
      logger.error('s3 events: could not queue an upload event', { error }),
    );
  }
}
