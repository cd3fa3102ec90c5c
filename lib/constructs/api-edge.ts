import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as route53Targets from 'aws-cdk-lib/aws-route53-targets';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { CLOUD_MULTIPART_MAX_BYTES, EDGE_HEADERS, ENV, PRESIGNED_UPLOAD_ROUTE } from '../../shared/manifest';
import type { CustomDomain } from '../context';
import { ApiDocsSite } from './api-docs-site';
import { CONSOLE_PAGE, ConsoleSite } from './console-site';
import { edgeFunctionCode } from './edge-function-code';

/** What the edge's viewer-request function is built with. */
export interface ViewerRequestSettings {
  /** A larger body (by its Content-Length) is refused with the P 413. */
  readonly maxBodyBytes: number;
  /** Origins the 413 carries CORS headers for, as the functions' CORS_ORIGINS. */
  readonly corsOrigins: '*' | readonly string[];
}

const VIEWER_REQUEST_SOURCE = new URL('../edge/viewer-request.js', import.meta.url);

/** The CloudFront Function's code: `lib/edge/viewer-request.js` with its settings written in. */
export function viewerRequestCode(settings: ViewerRequestSettings): string {
  return edgeFunctionCode(VIEWER_REQUEST_SOURCE, {
    __MAX_BODY_BYTES__: settings.maxBodyBytes,
    __PRESIGNED_UPLOAD_ROUTE__: PRESIGNED_UPLOAD_ROUTE,
    __CORS_ORIGINS__: settings.corsOrigins,
    __VIEWER_ADDRESS_HEADER__: EDGE_HEADERS.viewerAddress,
  });
}

export interface ApiEdgeProps {
  readonly httpApi: apigwv2.IHttpApi;
  readonly corsOrigins: readonly string[];
  /** A name of the operator's for the distribution (context `domainName`, `certificateArn`, `hostedZone*`); none: the `*.cloudfront.net` one. */
  readonly customDomain?: CustomDomain;
  /** Where the web console PUTs presigned uploads: its CSP names the bucket, the bucket's CORS the console. */
  readonly uploadsBucket?: s3.IBucket;
}

/**
 * CloudFront in front of the HTTP API: the address clients use. It exists for what the gateway cannot do itself:
 * answer a body too large for a Lambda invocation with the P 413 (the gateway answers those with its own bare
 * error), and tell the functions the client's address through a header they can trust, because the edge adds an
 * origin token (a generated secret) that requests sent to the gateway directly lack. Nothing of the API is
 * cached; the API contract and its Swagger UI are static files served from a bucket of their own
 * ({@link ApiDocsSite}), with no Lambda behind them.
 */
export class ApiEdge extends Construct {
  public readonly distribution: cloudfront.Distribution;
  public readonly originToken: secretsmanager.Secret;
  /** `/api-docs/*`, `/api/openapi.json` and `/swagger-ui*`, from S3. */
  public readonly docs: ApiDocsSite;
  /** The web console: `/` (and `/index.html`) and `/assets/*`, from S3. */
  public readonly console: ConsoleSite;
  /** `https://<custom domain>` when there is one, `https://<distribution domain>` otherwise: the API's base URL. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: ApiEdgeProps) {
    super(scope, id);
    this.originToken = new secretsmanager.Secret(this, 'OriginToken', {
      description: 'Sent by CloudFront to the HTTP API on every request; the functions refuse requests without it.',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      // Worthless without the distribution: it goes with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'P 413 for bodies too large for Lambda; the client address for the functions',
      code: cloudfront.FunctionCode.fromInline(
        viewerRequestCode({
          maxBodyBytes: CLOUD_MULTIPART_MAX_BYTES,
          corsOrigins: props.corsOrigins.includes('*') ? '*' : props.corsOrigins,
        }),
      ),
    });
    const region = Stack.of(this).region;
    const origin = new origins.HttpOrigin(`${props.httpApi.apiId}.execute-api.${region}.amazonaws.com`, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // The gateway's own integration timeout is 30 s.
      readTimeout: Duration.seconds(30),
      customHeaders: { [EDGE_HEADERS.originToken]: this.originToken.secretValue.unsafeUnwrap() },
    });
    const custom = props.customDomain;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${Stack.of(this).stackName} API`,
      // The certificate is imported, not made: CloudFront wants it in us-east-1, the stack may be anywhere.
      ...(custom
        ? { domainNames: [custom.domainName], certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', custom.certificateArn) }
        : {}),
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // `/` is the web console's page, which the console's behaviour for /index.html serves from S3.
      defaultRootObject: CONSOLE_PAGE,
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      defaultBehavior: {
        origin,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        // Every answer is per caller: nothing is cached, and every viewer header but Host (the gateway routes on
        // its own host name) reaches the functions, Authorization included.
        cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
        originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        compress: false,
        functionAssociations: [{ function: viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
    });
    this.docs = new ApiDocsSite(this, 'Docs', { distribution: this.distribution });
    this.console = new ConsoleSite(this, 'Console', {
      distribution: this.distribution,
      origins: [`https://${this.distribution.distributionDomainName}`, ...(custom ? [`https://${custom.domainName}`] : [])],
      uploads: props.uploadsBucket ? { bucket: props.uploadsBucket, corsOrigins: props.corsOrigins } : undefined,
    });
    if (custom?.hostedZone) {
      const zone = route53.HostedZone.fromHostedZoneAttributes(this, 'Zone', { hostedZoneId: custom.hostedZone.id, zoneName: custom.hostedZone.name });
      const target = route53.RecordTarget.fromAlias(new route53Targets.CloudFrontTarget(this.distribution));
      new route53.ARecord(this, 'AliasA', { zone, recordName: custom.domainName, target });
      new route53.AaaaRecord(this, 'AliasAaaa', { zone, recordName: custom.domainName, target });
    }
    this.url = `https://${custom?.domainName ?? this.distribution.distributionDomainName}`;
  }

  /** The function answers only requests that came through the edge, and takes the client's address from it. */
  bindFunction(fn: lambda.Function): void {
    fn.addEnvironment(ENV.edgeOriginSecretArn, this.originToken.secretArn);
    this.originToken.grantRead(fn);
  }
}
