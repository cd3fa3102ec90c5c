import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import * as vm from 'node:vm';
import { Stage } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { apiDocsRequestCode } from '../../lib/constructs/api-docs-site';
import { API_DOCS_ALIASES, API_DOCS_CACHE_CONTROL, API_DOCS_FILES, API_DOCS_PATH_PATTERNS } from '../../shared/api-docs/files';
import { SWAGGER_UI_CSP, SWAGGER_UI_INITIALIZER, SWAGGER_UI_PAGE } from '../../shared/api-docs/swagger-ui-page';
import { buildStacks, logicalIdOf } from './build-stacks';

/** The API contract and its Swagger UI at the CloudFront edge: static files from S3, never a Lambda. */

interface Behavior {
  PathPattern: string;
  AllowedMethods: string[];
  CachedMethods: string[];
  TargetOriginId: string;
  CachePolicyId: string;
  Compress: boolean;
  ViewerProtocolPolicy: string;
  ResponseHeadersPolicyId: unknown;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
  LambdaFunctionAssociations?: unknown[];
}

const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const stacks = buildStacks();
const site = stacks.api.edge!.docs;
const resources = stacks.apiTemplate.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, unknown> }>;
const distribution = () => Object.values(stacks.apiTemplate.findResources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig;
const docsBehaviors = (): Behavior[] =>
  distribution().CacheBehaviors.filter((behavior: Behavior) => (API_DOCS_PATH_PATTERNS as readonly string[]).includes(behavior.PathPattern));

/** The one resource of a type (among those `filter` accepts): its logical id and properties. */
function onlyOf<T>(type: string, filter: (properties: Record<string, unknown>, id: string) => boolean = () => true): { id: string; properties: T } {
  const found = Object.entries(resources).filter(([id, resource]) => resource.Type === type && filter(resource.Properties, id));
  if (found.length !== 1) throw new Error(`${found.length} resources of type ${type}, not one`);
  const [id, resource] = found[0]!;
  return { id, properties: resource.Properties as T };
}

/** A CloudFront path pattern as a regular expression: `*` any characters, `?` one. */
const patternMatches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`).test(path);

describe('the edge behaviours for the API contract and its UI', () => {
  it('serve /api-docs/*, /api/openapi.json and /swagger-ui* through the docs function, which sees every method, caching GET and HEAD', () => {
    // Act
    const behaviors = docsBehaviors();

    // Assert
    expect(behaviors.map((behavior) => behavior.PathPattern)).toEqual([...API_DOCS_PATH_PATTERNS]);
    for (const behavior of behaviors) {
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']));
      expect(behavior.CachedMethods).toEqual(['GET', 'HEAD']);
      expect(behavior.CachePolicyId).toBe(CACHING_OPTIMIZED);
      expect(behavior.Compress).toBe(true);
      expect(behavior.ViewerProtocolPolicy).toBe('https-only');
      expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: logicalIdOf(site.responseHeaders) });
      expect(behavior.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalIdOf(site.viewerRequest), 'FunctionARN'] } }]);
      // No Lambda@Edge: other methods are refused by CloudFront itself, and nothing here runs a Lambda.
      expect(behavior.LambdaFunctionAssociations).toBeUndefined();
    }
  });

  it('cover every allow-listed file and alias, and no path of the API', () => {
    // Arrange
    const served = [...API_DOCS_FILES.map((file) => file.path), ...Object.keys(API_DOCS_ALIASES)];

    // Act
    const uncovered = served.filter((path) => !API_DOCS_PATH_PATTERNS.some((pattern) => patternMatches(pattern, path)));
    const taken = ['/api/documents', '/api/health', '/api/auth/login', '/api/v2/documents', '/ws'].filter((path) =>
      API_DOCS_PATH_PATTERNS.some((pattern) => patternMatches(pattern, path)),
    );

    // Assert
    expect(uncovered).toEqual([]);
    expect(taken).toEqual([]);
  });

  it('reach a bucket of their own through origin access control, not the API nor the documents bucket', () => {
    // Arrange
    const origins = distribution().Origins as { Id: string; DomainName: unknown; OriginAccessControlId?: unknown; S3OriginConfig?: unknown }[];

    // Act
    const origin = origins.find((candidate) => candidate.Id === docsBehaviors()[0]?.TargetOriginId);

    // Assert
    expect(new Set(docsBehaviors().map((behavior) => behavior.TargetOriginId)).size).toBe(1);
    expect(origin?.DomainName).toEqual({ 'Fn::GetAtt': [logicalIdOf(site.bucket), 'RegionalDomainName'] });
    expect(origin?.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    // The web console's bucket has an access control of its own (test/infra/console-site.test.ts).
    const controlId = (origin?.OriginAccessControlId as { 'Fn::GetAtt': [string, string] } | undefined)?.['Fn::GetAtt'][0];
    const control = onlyOf<{ OriginAccessControlConfig: unknown }>('AWS::CloudFront::OriginAccessControl', (_, id) => id === controlId);
    expect(origin?.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [control.id, 'Id'] });
    expect(control.properties.OriginAccessControlConfig).toMatchObject({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' });
    expect(logicalIdOf(site.bucket)).not.toBe(logicalIdOf(stacks.stateful.documentsBucket));
    expect(JSON.stringify(distribution())).not.toContain('DocumentsBucket');
  });

  it('keep the docs bucket private: readable by this distribution only, TLS only', () => {
    // Arrange
    const bucketRef = { Ref: logicalIdOf(site.bucket) };
    const policy = onlyOf<{ PolicyDocument: { Statement: Record<string, unknown>[] } }>(
      'AWS::S3::BucketPolicy',
      (properties) => JSON.stringify(properties['Bucket']) === JSON.stringify(bucketRef),
    );

    // Act
    const statements = policy.properties.PolicyDocument.Statement;

    // Assert
    const read = statements.find((statement) => statement['Effect'] === 'Allow');
    expect(read).toMatchObject({ Action: 's3:GetObject', Principal: { Service: 'cloudfront.amazonaws.com' } });
    expect(JSON.stringify(read?.['Condition'])).toContain(logicalIdOf(stacks.api.edge!.distribution));
    expect(statements.filter((statement) => statement['Effect'] === 'Allow')).toHaveLength(1);
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    stacks.apiTemplate.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
  });

  it('send the UI its strict CSP, nosniff and no-referrer, as the local runtime does', () => {
    // Act
    const policy = onlyOf<{ ResponseHeadersPolicyConfig: { SecurityHeadersConfig: unknown } }>(
      'AWS::CloudFront::ResponseHeadersPolicy',
      (_, id) => id === logicalIdOf(site.responseHeaders),
    );

    // Assert
    const security = policy.properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security).toEqual({
      ContentSecurityPolicy: { ContentSecurityPolicy: SWAGGER_UI_CSP, Override: true },
      ContentTypeOptions: { Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(SWAGGER_UI_CSP).toContain("default-src 'none'");
    expect(SWAGGER_UI_CSP).not.toContain('unsafe-');
  });
});

describe('the deployment of the docs files', () => {
  const deployment = onlyOf<Record<string, unknown>>(
    'Custom::CDKBucketDeployment',
    (properties) => JSON.stringify(properties['DestinationBucketName']) === JSON.stringify({ Ref: logicalIdOf(site.bucket) }),
  );

  it('fills the docs bucket at deploy time, publicly cacheable for five minutes, removing what is no longer listed', () => {
    // Act
    const properties = deployment.properties;

    // Assert
    expect(properties['DestinationBucketName']).toEqual({ Ref: logicalIdOf(site.bucket) });
    expect(properties['SystemMetadata']).toEqual({ 'cache-control': API_DOCS_CACHE_CONTROL });
    expect(properties['Prune']).toBe(true);
    expect(properties['RetainOnDelete']).toBe(false);
    expect(properties['SourceObjectKeys']).toHaveLength(1);
  });

  it('deploys exactly the allow-listed files, with the same bytes the local runtime serves', () => {
    // Arrange: the asset the deployment copies, in the cloud assembly.
    const [key] = deployment.properties['SourceObjectKeys'] as string[];
    const asset = join(Stage.of(stacks.api)!.outdir, `asset.${String(key).replace(/\.zip$/, '')}`);
    const files = (readdirSync(asset, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string; parentPath: string }[])
      .filter((entry) => entry.isFile())
      .map((entry) => `/${relative(asset, join(entry.parentPath, entry.name))}`);
    const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const read = (path: string) => readFileSync(join(asset, path));

    // Assert
    expect(files.sort()).toEqual(API_DOCS_FILES.map((file) => file.path).sort());
    expect(read('swagger-ui/index.html').toString()).toBe(SWAGGER_UI_PAGE);
    expect(read('swagger-ui/initializer.js').toString()).toBe(SWAGGER_UI_INITIALIZER);
    expect(read('api-docs/openapi.json').equals(readFileSync(new URL('../../docs/api/openapi.json', import.meta.url)))).toBe(true);
    expect(read('api-docs/asyncapi.json').equals(readFileSync(new URL('../../docs/api/asyncapi.json', import.meta.url)))).toBe(true);
    expect(read('swagger-ui/swagger-ui-bundle.js').equals(readFileSync(join(dist, 'swagger-ui-bundle.js')))).toBe(true);
  });

  it('is left out with the edge when deployed with edge=false', () => {
    // Act
    const direct = buildStacks({ edge: false });

    // Assert
    expect(direct.apiTemplate.findResources('Custom::CDKBucketDeployment')).toEqual({});
    expect(direct.apiTemplate.findResources('AWS::S3::Bucket')).toEqual({});
  });
});

interface EdgeAnswer {
  uri?: string;
  statusCode?: number;
  headers: Record<string, { value: string }>;
  body?: { encoding: string; data: string };
}

describe("the docs behaviours' viewer-request function", () => {
  const handler = vm.runInNewContext(`${apiDocsRequestCode()}\nhandler;`) as (event: unknown) => EdgeAnswer;
  const viewerRequest = (uri: string, method = 'GET'): EdgeAnswer =>
    handler({
      version: '1.0',
      context: { eventType: 'viewer-request', requestId: 'edge-request-2', distributionId: 'E123' },
      viewer: { ip: '203.0.113.7' },
      request: { method, uri, querystring: {}, cookies: {}, headers: {} },
    });

  it.each([
    ['/swagger-ui', '/swagger-ui/index.html'],
    ['/swagger-ui/', '/swagger-ui/index.html'],
    ['/api/openapi.json', '/api-docs/openapi.json'],
    ...API_DOCS_FILES.map((file) => [file.path, file.path]),
  ])('sends %s to the bucket as %s', (uri, key) => {
    // Act
    const forwarded = viewerRequest(uri);

    // Assert
    expect(forwarded.statusCode).toBeUndefined();
    expect(forwarded.uri).toBe(key);
  });

  it.each([
    '/api-docs/',
    '/api-docs/x',
    '/api-docs/toString',
    '/swagger-ui/__proto__',
    '/swagger-uix',
    '/swagger-ui/swagger-ui.js.map',
    '/swagger-ui/package.json',
    '/swagger-ui/../package.json',
    '/swagger-ui/%2e%2e/package.json',
    '/swagger-ui/..%2fpackage.json',
  ])('answers %s, which is not on the allow-list, with the P 404', (uri) => {
    // Act
    const answer = viewerRequest(uri);

    // Assert
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['content-type']).toEqual({ value: 'application/json' });
    expect(JSON.parse(answer.body?.data ?? 'null')).toEqual({
      error: { code: 'NOT_FOUND', message: `No endpoint GET ${uri}`, details: { method: 'GET', path: uri }, timestamp: expect.any(String), request_id: 'edge-request-2' },
    });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('answers %s on a served file with the P 404, sending nothing to the bucket', (method) => {
    // Act
    const answer = viewerRequest('/api-docs/openapi.json', method);

    // Assert
    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body?.data ?? 'null').error).toMatchObject({ code: 'NOT_FOUND', details: { method, path: '/api-docs/openapi.json' } });
  });

  it("fits CloudFront Functions' 10 KB code limit", () => {
    // Act
    const size = Buffer.byteLength(apiDocsRequestCode());

    // Assert
    expect(size).toBeLessThan(10 * 1024);
  });
});
