import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stage } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildConsole } from '../../web/build';
import { ConsoleUploadCors } from './console-upload-cors';
import {
  CONSOLE_ASSET_CACHE_CONTROL,
  CONSOLE_ASSETS_PREFIX,
  CONSOLE_PAGE_CACHE_CONTROL,
  CONSOLE_SECURITY_HEADERS,
  consoleCsp,
} from '../../web/site';

/** The console's page, which the distribution's default root object (`/`) names too. */
export const CONSOLE_PAGE = 'index.html';
/** The edge's path patterns for the console: the page and the hashed assets; everything else is the API's. */
export const CONSOLE_PATH_PATTERNS = [`/${CONSOLE_PAGE}`, `${CONSOLE_ASSETS_PREFIX}*`] as const;

export interface ConsoleSiteProps {
  /** The edge, which gets a behaviour for each of {@link CONSOLE_PATH_PATTERNS}. */
  readonly distribution: cloudfront.Distribution;
  /** The console's own origins (the distribution's domain, a custom domain), which the uploads bucket's CORS allows. */
  readonly origins: readonly string[];
  /**
   * Where the browser PUTs presigned uploads, and the deployment's `corsOrigins`: the page's CSP allows the
   * bucket's regional endpoint, and the bucket's CORS gets the console's origins ({@link ConsoleUploadCors}).
   */
  readonly uploads?: { readonly bucket: s3.IBucket; readonly corsOrigins: readonly string[] };
}

/**
 * The web console (web/) at the edge, same origin as the API: built at synth into the cloud assembly, deployed
 * to a bucket of its own reached only through the distribution (origin access control). `/` and `/index.html`
 * are the page (`no-cache`, so a deployment shows at the next load; the console's CSP); `/assets/*` the hashed
 * bundles (`immutable`, and kept across deployments so that a page loaded before one still finds its assets).
 */
export class ConsoleSite extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly pageHeaders: cloudfront.ResponseHeadersPolicy;
  public readonly assetHeaders: cloudfront.ResponseHeadersPolicy;
  /** The uploads bucket's CORS rule with the console's origins; none without an uploads bucket. */
  public readonly uploadCors?: ConsoleUploadCors;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // Built from the repository at every deploy: the deployment empties it on delete, then it goes.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const built = buildConsole(join(Stage.of(this)?.outdir ?? tmpdir(), 'console-staging', this.node.addr)).outDir;
    // One deployment, never pruning: the assets of the previous page stay, for a browser that loaded it before
    // the deploy. Cache-Control is set per behaviour by the response headers policies below.
    new s3deploy.BucketDeployment(this, 'Files', {
      sources: [s3deploy.Source.asset(built)],
      destinationBucket: this.bucket,
      prune: false,
      retainOnDelete: false,
    });

    const uploadOrigins = props.uploads ? [`https://${props.uploads.bucket.bucketRegionalDomainName}`] : [];
    if (props.uploads) {
      this.uploadCors = new ConsoleUploadCors(this, 'UploadCors', { bucket: props.uploads.bucket, consoleOrigins: props.origins, corsOrigins: props.uploads.corsOrigins });
    }

    const securityHeaders = (csp: string): cloudfront.ResponseSecurityHeadersBehavior => ({
      contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: true },
    });
    this.pageHeaders = new cloudfront.ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'Web console page: its CSP, no-cache, nosniff, no referrer, no framing',
      securityHeadersBehavior: securityHeaders(consoleCsp(uploadOrigins)),
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Cache-Control', value: CONSOLE_PAGE_CACHE_CONTROL, override: true },
          { header: 'Cross-Origin-Opener-Policy', value: CONSOLE_SECURITY_HEADERS['cross-origin-opener-policy']!, override: true },
        ],
      },
    });
    this.assetHeaders = new cloudfront.ResponseHeadersPolicy(this, 'AssetHeaders', {
      comment: 'Web console assets: immutable, nosniff',
      securityHeadersBehavior: securityHeaders(consoleCsp(uploadOrigins)),
      customHeadersBehavior: { customHeaders: [{ header: 'Cache-Control', value: CONSOLE_ASSET_CACHE_CONTROL, override: true }] },
    });
    const origin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket);
    for (const pattern of CONSOLE_PATH_PATTERNS) {
      props.distribution.addBehavior(pattern, origin, {
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Keyed on the path only; the page is revalidated by browsers (no-cache) and fresh at the edge after each deploy.
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: pattern === CONSOLE_PATH_PATTERNS[0] ? this.pageHeaders : this.assetHeaders,
        compress: true,
      });
    }
  }
}
