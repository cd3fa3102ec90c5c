import type { FileStore } from '../../domain/files/ports';
import type { ClientOptions } from './clients';
import { createS3Client } from './s3-client';
import { S3FileStore } from './s3-file-store';

/**
 * What {@link lazyS3FileStore} imports on first use, and nothing imports statically: esbuild keeps a module that
 * is both imported statically (even by code the function never runs) and through import() in what its cold start
 * loads, so the import() targets are these loaders, not the adapters other roots import.
 */
export const loadS3FileStore = (bucket: string, clientOptions: ClientOptions): FileStore => new S3FileStore(createS3Client(clientOptions), bucket);
