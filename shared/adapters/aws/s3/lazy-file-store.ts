import type { FileStore } from '../../../domain/files/ports';
import { onFirstUse } from '../../first-use';
import type { ClientOptions } from '../clients';

/**
 * The FileStore port on S3, loaded on first use (a dynamic import of the S3 client and its store). For functions
 * that reach the bucket only on some invocations: the documents function, whose listings, metadata and changes
 * never touch it, and the source sync, whose directory steps do not. A cold start that serves one of those does
 * not evaluate the S3 client (a good part of the documents function's cold import: bench/lambda-bundles.ts); the
 * first call that needs it loads it. A failed load is tried again on the next call.
 */
export function lazyS3FileStore(bucket: string, clientOptions: ClientOptions = {}): FileStore {
  const store = onFirstUse(async () => (await import('./file-store-loader')).s3FileStore(bucket, clientOptions));
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
