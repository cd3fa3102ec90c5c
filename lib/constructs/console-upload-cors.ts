import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';

/**
 * The documents bucket's CORS rule, as the stateful stack writes it for `corsOrigins` (PUT and GET of presigned
 * URLs; the ETag of each part exposed, for multipart uploads), without its origins.
 */
export const UPLOAD_CORS_RULE = { AllowedMethods: ['PUT', 'GET'], AllowedHeaders: ['*'], ExposeHeaders: ['ETag'], MaxAgeSeconds: 3600 } as const;

export interface ConsoleUploadCorsProps {
  /** The documents bucket, where presigned uploads go. */
  readonly bucket: s3.IBucket;
  /** The console's origins: `https://<distribution domain>`, and the custom domain's when there is one. */
  readonly consoleOrigins: readonly string[];
  /** The deployment's `corsOrigins`, which the stateful stack writes into the same bucket's CORS. */
  readonly corsOrigins: readonly string[];
}

/** The origins one CORS rule allows: `*` alone when `corsOrigins` has it, else every origin once. */
export function uploadCorsOrigins(consoleOrigins: readonly string[], corsOrigins: readonly string[]): string[] {
  return corsOrigins.includes('*') ? ['*'] : [...new Set([...corsOrigins, ...consoleOrigins])];
}

/**
 * Lets the web console PUT presigned uploads into the documents bucket: the bucket's CORS rule gets the console's
 * origin (the distribution's domain name, known only once this stack deploys) beside `corsOrigins`. The bucket
 * lives in the stateful stack and the distribution here, so naming the distribution there would be a dependency
 * cycle: the rule is written by a deploy-time call (PutBucketCors) from this stack, as the search domain's access
 * policy is ({@link SearchAccess}). The stateful stack deploys first, so this call's rule is the one that holds;
 * its properties carry `corsOrigins`, so a change of them (which rewrites the stateful stack's rule) runs it again.
 * Deleting this stack puts back the rule of `corsOrigins` alone (or none).
 */
export class ConsoleUploadCors extends Construct {
  public readonly resource: cr.AwsCustomResource;

  constructor(scope: Construct, id: string, props: ConsoleUploadCorsProps) {
    super(scope, id);
    const physicalResourceId = cr.PhysicalResourceId.of('documents-bucket-cors');
    const put = (origins: string[]): cr.AwsSdkCall => ({
      service: 'S3',
      action: 'PutBucketCors',
      parameters: { Bucket: props.bucket.bucketName, CORSConfiguration: { CORSRules: [{ ...UPLOAD_CORS_RULE, AllowedOrigins: origins }] } },
      physicalResourceId,
    });
    const withConsole = put(uploadCorsOrigins(props.consoleOrigins, props.corsOrigins));
    this.resource = new cr.AwsCustomResource(this, 'Rule', {
      resourceType: 'Custom::ConsoleUploadCors',
      onCreate: withConsole,
      onUpdate: withConsole,
      onDelete: props.corsOrigins.length
        ? put([...props.corsOrigins])
        : { service: 'S3', action: 'DeleteBucketCors', parameters: { Bucket: props.bucket.bucketName }, physicalResourceId },
      // PutBucketCors and DeleteBucketCors are both authorised by s3:PutBucketCORS.
      policy: cr.AwsCustomResourcePolicy.fromStatements([new iam.PolicyStatement({ actions: ['s3:PutBucketCORS'], resources: [props.bucket.bucketArn] })]),
      installLatestAwsSdk: false,
    });
  }
}
