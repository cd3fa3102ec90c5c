import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * Where a stream poller remembers, per shard, the sequence number of the last record it is done with
 * (delivered, or given up on and sent to the failure destination). Reading resumes after it. One store per
 * consumer: two consumers of one stream keep separate checkpoints.
 */
export interface StreamCheckpointStore {
  /** The last sequence number done in this shard, or undefined when nothing was done yet. */
  get(shardId: string): Promise<string | undefined>;
  /** Records that the shard is done up to and including `sequenceNumber`; resolves once it is kept. */
  put(shardId: string, sequenceNumber: string): Promise<void>;
}

/** Checkpoints for the life of the process (tests; a consumer that may re-read from its starting position). */
export class InMemoryStreamCheckpointStore implements StreamCheckpointStore {
  private readonly checkpoints = new Map<string, string>();

  get(shardId: string): Promise<string | undefined> {
    return Promise.resolve(this.checkpoints.get(shardId));
  }

  put(shardId: string, sequenceNumber: string): Promise<void> {
    this.checkpoints.set(shardId, sequenceNumber);
    return Promise.resolve();
  }
}

/**
 * Checkpoints in one JSON file (`<directory>/<name>.json`, shard id to sequence number), so a restart of the
 * local runtime resumes after the last record done instead of re-reading the stream or skipping what was
 * written while it was down. Each put rewrites the file atomically (a temporary file renamed over it), so a
 * crash leaves either the previous checkpoints or the new ones, never a torn file.
 */
export class FileStreamCheckpointStore implements StreamCheckpointStore {
  private readonly path: string;
  private loaded: Promise<Map<string, string>> | undefined;
  /** Writes one after the other, each of the whole map as it is then. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly directory: string,
    name: string,
  ) {
    this.path = join(directory, `${name}.json`);
  }

  async get(shardId: string): Promise<string | undefined> {
    return (await this.load()).get(shardId);
  }

  async put(shardId: string, sequenceNumber: string): Promise<void> {
    const checkpoints = await this.load();
    checkpoints.set(shardId, sequenceNumber);
    const write = this.writing.then(() => this.write(checkpoints));
    // A failed write is reported to its caller; the next put still writes.
    this.writing = write.catch(() => undefined);
    await write;
  }

  private load(): Promise<Map<string, string>> {
    return (this.loaded ??= readFile(this.path, 'utf8').then(
      (text) => new Map(Object.entries(JSON.parse(text) as Record<string, string>)),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return new Map<string, string>();
        this.loaded = undefined;
        throw error;
      },
    ));
  }

  private async write(checkpoints: Map<string, string>): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const temporary = `${this.path}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(Object.fromEntries(checkpoints), null, 2));
    await rename(temporary, this.path);
  }
}
