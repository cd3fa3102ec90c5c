import { createHash } from 'node:crypto';
import { PART_MAX_BYTES, PART_MAX_RECORDS } from './archive-format';

/** Gathers records into JSON-lines parts of at most PART_MAX_RECORDS records or PART_MAX_BYTES bytes. */
export class PartBuilder {
  private lines: Uint8Array[] = [];
  private bytes = 0;
  private readonly encoder = new TextEncoder();

  /** Adds a record; true when the part is full and should be taken. */
  push(record: unknown): boolean {
    const line = this.encoder.encode(`${JSON.stringify(record)}\n`);
    this.lines.push(line);
    this.bytes += line.byteLength;
    return this.lines.length >= PART_MAX_RECORDS || this.bytes >= PART_MAX_BYTES;
  }

  get records(): number {
    return this.lines.length;
  }

  /** The part's bytes; the builder starts a new part. */
  take(): Uint8Array {
    const part = Buffer.concat(this.lines);
    this.lines = [];
    this.bytes = 0;
    return part;
  }
}

/** A SHA-256 of bytes as they pass, with their count: read `size` and `sha256()` once the stream ended. */
export class HashingStream {
  private readonly hash = createHash('sha256');
  size = 0;

  constructor(private readonly source: AsyncIterable<Uint8Array>) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for await (const chunk of this.source) {
      this.hash.update(chunk);
      this.size += chunk.byteLength;
      yield chunk;
    }
  }

  sha256(): string {
    return this.hash.digest('hex');
  }
}

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Reads a stream whole, refusing more than `maxBytes` (an entry held in memory: a part, the manifest). */
export async function collect(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > maxBytes) return null;
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}
