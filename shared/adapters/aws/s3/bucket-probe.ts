import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import type { HealthProbe } from '../../../domain/health/ports';

// Apart from the table's probe (dynamodb/table-probe.ts), so that importing that one does not make the S3 client part of
// a cold start (see client.ts).
export const bucketProbe = (s3: S3Client, bucketName: string): HealthProbe => ({
  name: 's3',
  check: async () => {
    await s3.send(new HeadBucketCommand({ Bucket: bucketName }));
  },
});
