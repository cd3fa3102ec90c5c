import { S3Client } from '@aws-sdk/client-s3';
import { traced } from '../../otel/process-tracing';
import { clientBase, type ClientOptions } from '../clients';

/** The S3 client (see `clients.ts` for the options and for why it has a module of its own). */
export const createS3Client = (options: ClientOptions = {}): S3Client =>
  traced(
    new S3Client({
      ...clientBase(options),
      // An emulator on loopback needs path-style URLs and plain checksums (no flexible-checksum trailers).
      ...(options.endpoint
        ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
    }),
  );
