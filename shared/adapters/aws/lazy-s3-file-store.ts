import type { FileStore } from '../../domain/files/ports';
import { onFirstUse } from '../first-use';
import type { ClientOptions } from './clients';

/**
 * The FileStore port on S3, loaded on first use (a dynamic import of the S3 client and its store). For the
 * documents function, whose listings, metadata and changes never touch the bucket: a cold start that serves
 * one of those does not evaluate the S3 client (about 4 ms of its cold import, bench/lambda-bundles.ts); the
 * first upload, download, thumbnail or delete loads it. A failed load is tried again on the next call.
 */
export function lazyS3FileStore(bucket: string, clientOptions: ClientOptions = {}): FileStore {
  const store = onFirstUse(async () => {
    const [{ S3FileStore }, { createS3Client }] = await Promise.all([import('./s3-file-store'), import('./s3-client')]);
    return new S3FileStore(createS3Client(clientOptions), bucket);
  });
  return {
    put: async (...args) => (await store()).put(...args),
    putStream: async (...args) => (await store()).putStream(...args),
    get: async (...args) => (await store()).get(...args),
    deletePrefix: async (...args) => (await store()).deletePrefix(...args),
    downloadUrl: async (...args) => (await store()).downloadUrl(...args),
    uploadUrl: async (...args) => (await store()).uploadUrl(...args),
    inspect: async (...args) => (await store()).inspect(...args),
    move: async (...args) => (await store()).move(...args),
    // S3FileStore's keys are the bucket's keys.
    bucketKey: (key) => key,
  };
}
