import { once } from 'node:events';
import { Readable, pipeline } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { ArchiveRejectedError } from '../../domain/portability/archive-format';
import type { ArchiveCodec, ArchiveEntry, ArchiveSink } from '../../domain/portability/ports';

/**
 * Compression level of the archive: originals are mostly compressed already (PDF, JPEG, PNG), so a level above
 * 1 costs CPU for little (docs/export-and-import.md).
 */
const GZIP_LEVEL = 1;

/** The archive as a gzip'd POSIX tar (tar-stream), written and read as streams: one chunk of one entry at a time. */
export const tarGzipCodec: ArchiveCodec = {
  write(build) {
    const tar = pack();
    const gzip = createGzip({ level: GZIP_LEVEL });
    pipeline(tar, gzip, () => undefined);
    const sink: ArchiveSink = {
      add: (name, size, body) => addEntry(tar, name, size, body),
    };
    build(sink).then(
      () => tar.finalize(),
      (error: unknown) => tar.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return gzip;
  },

  async *read(bytes) {
    let sourceError: unknown = null;
    const source = Readable.from(
      (async function* () {
        try {
          yield* bytes;
        } catch (error) {
          sourceError = error;
          throw error;
        }
      })(),
    );
    const entries = extract();
    pipeline(source, createGunzip(), entries, () => undefined);
    const iterator = entries[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Awaited<ReturnType<typeof iterator.next>>['value']>;
      try {
        next = await iterator.next();
      } catch (error) {
        if (sourceError) throw sourceError;
        throw new ArchiveRejectedError('invalid_format', `not a gzip'd tar archive (${error instanceof Error ? error.message : String(error)})`);
      }
      if (next.done) return;
      const entry = next.value;
      const type = entry.header.type ?? 'file';
      if (type !== 'file') {
        entry.resume();
        throw new ArchiveRejectedError('unexpected_entry', `${entry.header.name} is a ${type}, not a file`);
      }
      const body = guarded(entry, () => sourceError);
      const item: ArchiveEntry = { name: entry.header.name, size: entry.header.size ?? 0, body };
      yield item;
      // The consumer may leave an entry unread: the next header follows its body.
      for await (const _chunk of body) {
        // drained
      }
    }
  },
};

/** An entry's chunks, with a failure of the bytes beneath reported as what it is. */
async function* guarded(entry: AsyncIterable<Buffer>, sourceError: () => unknown): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of entry) yield chunk;
  } catch (error) {
    if (sourceError()) throw sourceError();
    throw new ArchiveRejectedError('invalid_format', `the archive ends inside an entry (${error instanceof Error ? error.message : String(error)})`);
  }
}

async function addEntry(tar: ReturnType<typeof pack>, name: string, size: number, body: Uint8Array | AsyncIterable<Uint8Array>): Promise<void> {
  if (body instanceof Uint8Array) {
    await new Promise<void>((resolve, reject) => tar.entry({ name, size, type: 'file', mtime: new Date(0) }, Buffer.from(body.buffer, body.byteOffset, body.byteLength), (error) => (error ? reject(error) : resolve())));
    return;
  }
  let settle!: (error?: Error | null) => void;
  const finished = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
  const entry = tar.entry({ name, size, type: 'file', mtime: new Date(0) }, (error) => settle(error));
  for await (const chunk of body) {
    if (!entry.write(chunk)) await Promise.race([once(entry, 'drain'), finished]);
  }
  entry.end(() => undefined);
  await finished;
}
