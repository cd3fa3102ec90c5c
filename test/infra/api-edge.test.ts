import * as vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { viewerRequestCode, type ViewerRequestSettings } from '../../lib/constructs/api-edge';
import { RATE_LIMITED_GROUPS } from '../../lib/stacks/api-stack';
import { CLOUD_MULTIPART_MAX_BYTES, EDGE_HEADERS, ENV, PRESIGNED_UPLOAD_ROUTE } from '../../shared/manifest';
import { buildStacks, environmentOf, grantsOf, logicalIdOf } from './build-stacks';

interface EdgeHeaders {
  [name: string]: { value: string };
}
interface EdgeAnswer {
  statusCode?: number;
  headers: EdgeHeaders;
  body?: { encoding: string; data: string };
}

/** Runs the CloudFront Function's code as CloudFront would: a script whose `handler` gets the viewer's event. */
function viewerRequest(settings: ViewerRequestSettings): (headers: Record<string, string>, viewerIp?: string) => EdgeAnswer {
  const handler = vm.runInNewContext(`${viewerRequestCode(settings)}\nhandler;`) as (event: unknown) => EdgeAnswer;
  return (headers, viewerIp = '203.0.113.7') =>
    handler({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'edge-request-1', distributionId: 'E123' },
      viewer: { ip: viewerIp },
      request: {
        method: 'POST',
        uri: '/api/documents/upload',
        querystring: {},
        cookies: {},
        headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { value }])),
      },
    });
}

const MAX = CLOUD_MULTIPART_MAX_BYTES;
const edge = viewerRequest({ maxBodyBytes: MAX, corsOrigins: ['https://app.example.com'] });
const MULTIPART = 'multipart/form-data; boundary=x';
const body = (answer: EdgeAnswer) => JSON.parse(answer.body?.data ?? 'null') as { error: Record<string, unknown> };

describe('the edge function in front of the HTTP API', () => {
  it('answers a multipart body above the cloud limit with the P 413 naming the presigned upload', () => {
    // Act
    const answer = edge({ 'content-type': MULTIPART, 'content-length': String(MAX + 1) });

    // Assert
    expect(answer.statusCode).toBe(413);
    expect(answer.headers['content-type']).toEqual({ value: 'application/json' });
    expect(body(answer).error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { limit_bytes: MAX, received_bytes: MAX + 1, use: PRESIGNED_UPLOAD_ROUTE },
      request_id: 'edge-request-1',
    });
    expect(body(answer).error.message).toContain(PRESIGNED_UPLOAD_ROUTE);
    expect(Date.parse(String(body(answer).error.timestamp))).not.toBeNaN();
  });

  it('answers any other body above the limit with a 413 that names only the limit', () => {
    // Act
    const answer = edge({ 'content-type': 'application/json', 'content-length': String(8 * 1024 * 1024) });

    // Assert
    expect(answer.statusCode).toBe(413);
    expect(body(answer).error.details).toEqual({ limit_bytes: MAX, received_bytes: 8 * 1024 * 1024 });
  });

  it('forwards a body of exactly the limit with the client address set', () => {
    // Act
    const forwarded = edge({ 'content-type': MULTIPART, 'content-length': String(MAX) }, '198.51.100.23');

    // Assert
    expect(forwarded.statusCode).toBeUndefined();
    expect(forwarded.headers[EDGE_HEADERS.viewerAddress]).toEqual({ value: '198.51.100.23' });
  });

  it('replaces a client address the client claims for itself', () => {
    // Act
    const forwarded = edge({ [EDGE_HEADERS.viewerAddress]: '10.0.0.1' }, '198.51.100.23');

    // Assert
    expect(forwarded.headers[EDGE_HEADERS.viewerAddress]).toEqual({ value: '198.51.100.23' });
  });

  it('lets an allowed browser origin read the 413', () => {
    // Act
    const answer = edge({ origin: 'https://app.example.com', 'content-length': String(MAX + 1) });

    // Assert
    expect(answer.headers['access-control-allow-origin']).toEqual({ value: 'https://app.example.com' });
  });

  it('gives another origin no CORS headers on the 413', () => {
    // Act
    const answer = edge({ origin: 'https://evil.example.net', 'content-length': String(MAX + 1) });

    // Assert
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("fits CloudFront Functions' 10 KB code limit", () => {
    // Act
    const size = Buffer.byteLength(viewerRequestCode({ maxBodyBytes: MAX, corsOrigins: '*' }));

    // Assert
    expect(size).toBeLessThan(10 * 1024);
  });
});

describe('the edge in the synthesized stack', () => {
  const stacks = buildStacks();
  const distribution = () => Object.values(stacks.apiTemplate.findResources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig;

  it('puts a CloudFront distribution that caches nothing in front of the HTTP API', () => {
    // Act
    const config = distribution();

    // Assert
    const behavior = config.DefaultCacheBehavior;
    expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    expect(behavior.ViewerProtocolPolicy).toBe('https-only');
    expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
    expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    expect(JSON.stringify(config.Origins[0].DomainName)).toContain(logicalIdOf(stacks.api.httpApi));
  });

  it('runs the size check on every viewer request', () => {
    // Act
    const associations = distribution().DefaultCacheBehavior.FunctionAssociations;

    // Assert
    expect(associations).toHaveLength(1);
    expect(associations[0].EventType).toBe('viewer-request');
    const fn = Object.values(stacks.apiTemplate.findResources('AWS::CloudFront::Function'))[0];
    expect(fn?.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(fn?.Properties.FunctionCode).toContain(`var MAX_BODY_BYTES = ${CLOUD_MULTIPART_MAX_BYTES};`);
  });

  it("sends the origin token from the edge's own secret to the gateway", () => {
    // Act
    const headers = distribution().Origins[0].OriginCustomHeaders as { HeaderName: string; HeaderValue: unknown }[];

    // Assert
    expect(headers).toHaveLength(1);
    expect(headers[0]?.HeaderName).toBe(EDGE_HEADERS.originToken);
    expect(JSON.stringify(headers[0]?.HeaderValue)).toContain(`{{resolve:secretsmanager:`);
    expect(JSON.stringify(headers[0]?.HeaderValue)).toContain(logicalIdOf(stacks.api.edge!.originToken));
  });

  it('lets every function that counts per client address read the token, and no other', () => {
    // Arrange
    const tokenRef = { Ref: logicalIdOf(stacks.api.edge!.originToken) };
    const readers = (Object.keys(stacks.api.functions) as (keyof typeof stacks.api.functions)[]).filter((name) =>
      grantsOf(stacks, name).some((s) => s.Action.includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(JSON.stringify(tokenRef))),
    );

    // Assert
    expect(readers.sort()).toEqual([...RATE_LIMITED_GROUPS].sort());
    for (const group of RATE_LIMITED_GROUPS) expect(environmentOf(stacks, group)[ENV.edgeOriginSecretArn]).toEqual(tokenRef);
  });

  it('gives the edge URL as the API URL output', () => {
    // Act
    const output = stacks.apiTemplate.toJSON().Outputs.HttpApiUrl.Value;

    // Assert
    expect(JSON.stringify(output)).toContain(logicalIdOf(stacks.api.edge!.distribution));
  });

  it('leaves the gateway to be called directly when deployed with edge=false', () => {
    // Act
    const direct = buildStacks({ edge: false });

    // Assert
    expect(direct.apiTemplate.findResources('AWS::CloudFront::Distribution')).toEqual({});
    expect(environmentOf(direct, 'documents')[ENV.edgeOriginSecretArn]).toBeUndefined();
  });
});

describe("the edge's custom domain", () => {
  const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';
  const distributionConfigOf = (stacks: ReturnType<typeof buildStacks>) =>
    Object.values(stacks.apiTemplate.findResources('AWS::CloudFront::Distribution')).map((distribution) => distribution.Properties.DistributionConfig)[0];

  it('changes nothing without one: the *.cloudfront.net name, no certificate, no DNS record', () => {
    // Arrange
    const stacks = buildStacks();

    // Act
    const config = distributionConfigOf(stacks);

    // Assert
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    stacks.apiTemplate.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('serves the domain with the us-east-1 certificate, and gives it as the API URL, with no record when no zone is given', () => {
    // Arrange
    const stacks = buildStacks({ customDomain: { domainName: 'api.example.com', certificateArn: CERT } });

    // Act
    const config = distributionConfigOf(stacks);
    const url = stacks.apiTemplate.toJSON().Outputs.HttpApiUrl.Value;

    // Assert
    expect(config.Aliases).toEqual(['api.example.com']);
    expect(config.ViewerCertificate).toEqual({ AcmCertificateArn: CERT, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
    expect(url).toBe('https://api.example.com');
    stacks.apiTemplate.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('creates alias A and AAAA records onto the distribution in the given zone', () => {
    // Arrange
    const stacks = buildStacks({
      customDomain: { domainName: 'api.example.com', certificateArn: CERT, hostedZone: { id: 'Z0123456789ABC', name: 'example.com' } },
    });
    const distribution = logicalIdOf(stacks.api.edge!.distribution);

    // Act
    const records = Object.values(stacks.apiTemplate.findResources('AWS::Route53::RecordSet')).map((record) => record.Properties);

    // Assert
    expect(records.map((record) => record.Type).sort()).toEqual(['A', 'AAAA']);
    for (const record of records) {
      expect(record).toMatchObject({
        HostedZoneId: 'Z0123456789ABC',
        Name: 'api.example.com.',
        AliasTarget: { DNSName: { 'Fn::GetAtt': [distribution, 'DomainName'] } },
      });
    }
  });

  it('is refused without the edge', () => {
    // Act
    const build = () => buildStacks({ edge: false, customDomain: { domainName: 'api.example.com', certificateArn: CERT } });

    // Assert
    expect(build).toThrow('A custom domain needs the CloudFront edge');
  });
});
