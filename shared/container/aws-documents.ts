import { lazyS3FileStore } from '../adapters/aws/s3/lazy-file-store';
import { sha256 } from '../adapters/crypto/sha256';
import type { AppContainer, DocumentServices } from './app-container';
import { awsAppContainer, bucketEnvSchema, textractLanguages } from './aws';
import { ocrQueues } from './kit/aws-queues';
import { parseEnv } from './config';
import { imagingServices } from './imaging';

/*
 * The documents part of the cloud composition root, apart from aws.ts because lazyS3FileStore's import() of
 * the S3 client makes a chunk of every bundle whose graph holds it, used or not (and its code shared with the
 * static part grows what each cold start loads): only the documents function's bundle should.
 */

/**
 * The app container plus file storage in S3 (loaded by the first route that reaches the bucket), the OCR queue
 * in SQS and the thumbnail renderer.
 */
export function awsDocumentsContainer(env: NodeJS.ProcessEnv = process.env): AppContainer & DocumentServices {
  return {
    ...awsAppContainer(env, { files: lazyS3FileStore(parseEnv(bucketEnvSchema, env).BUCKET_NAME), ocrQueues: ocrQueues(env) }),
    thumbnails: imagingServices(env, { prestart: false }).thumbnails,
    sha256,
    ocrLanguages: textractLanguages,
  };
}
