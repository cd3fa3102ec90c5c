import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tarGzipCodec } from '../../../../shared/adapters/archive/tar-gzip-codec';
import { ArchiveRejectedError } from '../../../../shared/domain/portability/archive-format';

const MiB = 1024 * 1024;

/** `total` bytes of a repeating pattern, in 1 MiB chunks made as they are asked for; `produced` counts them. */
function generated(total: number, counter: { produced: number }): AsyncIterable<Uint8Array> {
  return (async function* () {
    for (let offset = 0; offset < total; offset += MiB) {
      const chunk = new Uint8Array(Math.min(MiB, total - offset)).map((_, i) => (offset + i) % 251);
      counter.produced += chunk.byteLength;
      yield chunk;
    }
  })();
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function rejectionOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    return error instanceof ArchiveRejectedError ? error.reason : `other: ${String(error)}`;
  }
}

const readAll = async (bytes: AsyncIterable<Uint8Array>) => {
  const entries: { name: string; bytes: Buffer }[] = [];
  for await (const entry of tarGzipCodec.read(bytes)) entries.push({ name: entry.name, bytes: await collect(entry.body) });
  return entries;
};

describe('the tar.gz archive codec', () => {
  it('reads back the entries it wrote, in order and byte for byte', async () => {
    const archive = tarGzipCodec.write(async (sink) => {
      await sink.add('labels/000001.jsonl', 3, new TextEncoder().encode('{}\n'));
      await sink.add('files/x/original', 5 * MiB, generated(5 * MiB, { produced: 0 }));
      await sink.add('manifest.json', 2, new TextEncoder().encode('{}'));
    });

    const entries = await readAll(archive);

    expect(entries.map((entry) => [entry.name, entry.bytes.byteLength])).toEqual([
      ['labels/000001.jsonl', 3],
      ['files/x/original', 5 * MiB],
      ['manifest.json', 2],
    ]);
  });

  it('streams a large entry from writer to reader holding a bounded number of bytes in between', async () => {
    const size = 128 * MiB;
    const counter = { produced: 0 };
    let consumed = 0;
    let mostInFlight = 0;
    const archive = tarGzipCodec.write((sink) => sink.add('files/big/original', size, generated(size, counter)));
    const hash = createHash('sha256');

    for await (const entry of tarGzipCodec.read(archive)) {
      for await (const chunk of entry.body) {
        consumed += chunk.byteLength;
        mostInFlight = Math.max(mostInFlight, counter.produced - consumed);
        hash.update(chunk);
      }
    }

    expect({ consumed, boundedBelow32MiB: mostInFlight < 32 * MiB }).toEqual({ consumed: size, boundedBelow32MiB: true });
  });

  it('refuses bytes that are not gzip as invalid_format', async () => {
    const bytes = (async function* () {
      yield new TextEncoder().encode('PK\u0003\u0004 this is a zip, not a tar.gz');
    })();

    expect(await rejectionOf(readAll(bytes))).toBe('invalid_format');
  });

  it('refuses an archive cut short inside an entry as invalid_format', async () => {
    const whole = await collect(tarGzipCodec.write((sink) => sink.add('files/x/original', 2 * MiB, generated(2 * MiB, { produced: 0 }))));
    const cut = (async function* () {
      yield whole.subarray(0, Math.floor(whole.byteLength / 2));
    })();

    expect(await rejectionOf(readAll(cut))).toBe('invalid_format');
  });

  it('ends the archive with the error when the writer fails mid-way', async () => {
    const archive = tarGzipCodec.write(async (sink) => {
      await sink.add('labels/000001.jsonl', 3, new TextEncoder().encode('{}\n'));
      throw new Error('the store is gone');
    });

    await expect(collect(archive)).rejects.toThrow('the store is gone');
  });
});
