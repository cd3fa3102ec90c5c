import * as vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { viewerRequestCode } from '../../lib/constructs/api-edge';
import { CONSOLE_PATH_PATTERNS } from '../../lib/constructs/console-site';
import { CONSOLE_ASSET_CACHE_CONTROL, CONSOLE_PAGE_CACHE_CONTROL } from '../../web/site';
import { buildStacks, logicalIdOf } from './build-stacks';

/** The web console at the CloudFront edge: built at synth, from a bucket of its own, same origin as the API. */

interface Behavior {
  PathPattern: string;
  AllowedMethods: string[];
  TargetOriginId: string;
  ResponseHeadersPolicyId: { Ref: string };
}

interface HeadersPolicy {
  ResponseHeadersPolicyConfig: {
    SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: unknown } };
    CustomHeadersConfig: { Items: { Header: string; Value: string }[] };
  };
}

const stacks = buildStacks();
const site = stacks.api.edge!.console;
const template = stacks.apiTemplate;
const distribution = () => Object.values(template.findResources('AWS::CloudFront::Distribution'))[0]?.Properties.DistributionConfig;
const behaviorOf = (pattern: string): Behavior => distribution().CacheBehaviors.find((behavior: Behavior) => behavior.PathPattern === pattern);
const policy = (id: string): HeadersPolicy => template.toJSON().Resources[id].Properties;
const cspOf = (id: string): string => JSON.stringify(policy(id).ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
const cacheControlOf = (id: string) => policy(id).ResponseHeadersPolicyConfig.CustomHeadersConfig.Items.find((item) => item.Header === 'Cache-Control')?.Value;

describe('the web console at the edge', () => {
  it('serves / as the console page, and /index.html and /assets/* from its bucket, GET and HEAD only', () => {
    const origins = distribution().Origins as { Id: string; DomainName: unknown }[];
    const bucketOrigin = origins.find((origin) => JSON.stringify(origin.DomainName).includes(logicalIdOf(site.bucket)));

    expect(distribution().DefaultRootObject).toBe('index.html');
    for (const pattern of CONSOLE_PATH_PATTERNS) {
      expect(behaviorOf(pattern)).toMatchObject({ TargetOriginId: bucketOrigin?.Id, AllowedMethods: ['GET', 'HEAD'] });
    }
  });

  it('answers the page no-cache and the assets immutable', () => {
    expect(behaviorOf('/index.html').ResponseHeadersPolicyId.Ref).toBe(logicalIdOf(site.pageHeaders));
    expect(cacheControlOf(logicalIdOf(site.pageHeaders))).toBe(CONSOLE_PAGE_CACHE_CONTROL);
    expect(behaviorOf('/assets/*').ResponseHeadersPolicyId.Ref).toBe(logicalIdOf(site.assetHeaders));
    expect(cacheControlOf(logicalIdOf(site.assetHeaders))).toBe(CONSOLE_ASSET_CACHE_CONTROL);
  });

  it("sends the page with a CSP that allows scripts from the origin only and uploads to the documents bucket's endpoint", () => {
    const csp = cspOf(logicalIdOf(site.pageHeaders));

    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain('connect-src');
    expect(csp).toContain('RegionalDomainName');
  });

  it('deploys the built console to its bucket', () => {
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')).filter((resource) =>
      JSON.stringify(resource.Properties.DestinationBucketName).includes(logicalIdOf(site.bucket)),
    );

    expect(deployments).toHaveLength(1);
    expect(deployments[0]?.Properties.Prune).toBe(false);
  });

  it("sends a GET of / that reaches the API's behaviour to the console page, and leaves every other request to the API", () => {
    const handler = vm.runInNewContext(`${viewerRequestCode({ maxBodyBytes: 1000, corsOrigins: [] })}\nhandler;`) as (event: unknown) => {
      statusCode?: number;
      headers: Record<string, { value: string }>;
      uri?: string;
    };
    const request = (method: string, uri: string) =>
      handler({ version: '1.0', context: { requestId: 'r1' }, viewer: { ip: '203.0.113.7' }, request: { method, uri, querystring: {}, cookies: {}, headers: {} } });

    expect(request('GET', '/')).toMatchObject({ statusCode: 302, headers: { location: { value: '/index.html' } } });
    expect(request('POST', '/').statusCode).toBeUndefined();
    expect(request('GET', '/api/health')).toMatchObject({ uri: '/api/health' });
  });
});
