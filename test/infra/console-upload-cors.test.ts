import { describe, expect, it } from 'vitest';
import { UPLOAD_CORS_RULE } from '../../lib/constructs/console-upload-cors';
import { buildStacks, logicalIdOf, type BuiltStacks } from './build-stacks';

/**
 * The documents bucket's CORS rule names the web console's origin, which the stateful stack cannot know (the
 * distribution is the API stack's): a deploy-time PutBucketCors from the API stack writes it, without a cycle.
 */

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abcd-1234';

/** A CloudFormation value with its tokens written as «Ref x», «GetAtt x.y» or «Import x», so that a JSON text of them parses. */
function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  const token = value as Record<string, unknown>;
  if ('Fn::Join' in token) {
    const [separator, parts] = token['Fn::Join'] as [string, unknown[]];
    return parts.map(flatten).join(separator);
  }
  if ('Ref' in token) return `«Ref ${String(token['Ref'])}»`;
  if ('Fn::GetAtt' in token) return `«GetAtt ${(token['Fn::GetAtt'] as string[]).join('.')}»`;
  if ('Fn::ImportValue' in token) return `«Import ${flatten(token['Fn::ImportValue'])}»`;
  throw new Error(`an unexpected token: ${JSON.stringify(value)}`);
}

interface SdkCall {
  service: string;
  action: string;
  parameters: { Bucket: string; CORSConfiguration?: { CORSRules: Record<string, unknown>[] } };
}

function corsResource(built: BuiltStacks): { create: SdkCall; update: SdkCall; delete: SdkCall } {
  const resources = Object.values(built.apiTemplate.findResources('Custom::ConsoleUploadCors'));
  expect(resources).toHaveLength(1);
  const properties = resources[0]!.Properties as Record<string, unknown>;
  const parse = (name: string) => JSON.parse(flatten(properties[name])) as SdkCall;
  return { create: parse('Create'), update: parse('Update'), delete: parse('Delete') };
}

const distributionDomain = (built: BuiltStacks) => `https://«GetAtt ${logicalIdOf(built.api.edge!.distribution)}.DomainName»`;

describe("the documents bucket's CORS for the web console", () => {
  it("allows the distribution's origin beside corsOrigins, on create and on update, with the stateful stack's rule", () => {
    const built = buildStacks({ corsOrigins: ['https://app.example'] });

    const { create, update } = corsResource(built);
    const statefulRule = built.statefulTemplate.toJSON().Resources[logicalIdOf(built.stateful.documentsBucket)].Properties.CorsConfiguration.CorsRules[0];

    expect(create).toMatchObject({ service: 'S3', action: 'PutBucketCors', parameters: { Bucket: expect.stringMatching(/^«Import .*DocumentsBucket/) } });
    expect(create.parameters.CORSConfiguration?.CORSRules).toEqual([{ ...UPLOAD_CORS_RULE, AllowedOrigins: ['https://app.example', distributionDomain(built)] }]);
    expect(update).toEqual(create);
    expect(statefulRule).toEqual({
      AllowedMethods: UPLOAD_CORS_RULE.AllowedMethods,
      AllowedHeaders: UPLOAD_CORS_RULE.AllowedHeaders,
      ExposedHeaders: UPLOAD_CORS_RULE.ExposeHeaders,
      MaxAge: UPLOAD_CORS_RULE.MaxAgeSeconds,
      AllowedOrigins: ['https://app.example'],
    });
  });

  it('needs no corsOrigins, and deletes the rule with the API stack when there are none', () => {
    const built = buildStacks({ corsOrigins: [] });

    const calls = corsResource(built);

    expect(calls.create.parameters.CORSConfiguration?.CORSRules[0]?.['AllowedOrigins']).toEqual([distributionDomain(built)]);
    expect(calls.delete).toMatchObject({ service: 'S3', action: 'DeleteBucketCors' });
  });

  it('puts back the rule of corsOrigins alone when the API stack goes', () => {
    const calls = corsResource(buildStacks({ corsOrigins: ['https://app.example'] }));

    expect(calls.delete.action).toBe('PutBucketCors');
    expect(calls.delete.parameters.CORSConfiguration?.CORSRules[0]?.['AllowedOrigins']).toEqual(['https://app.example']);
  });

  it('allows the custom domain too, and nothing but "*" when corsOrigins is "*"', () => {
    const custom = buildStacks({ customDomain: { domainName: 'docs.example.com', certificateArn: CERT } });
    const any = buildStacks({ corsOrigins: ['*'] });

    expect(corsResource(custom).create.parameters.CORSConfiguration?.CORSRules[0]?.['AllowedOrigins']).toEqual([distributionDomain(custom), 'https://docs.example.com']);
    expect(corsResource(any).create.parameters.CORSConfiguration?.CORSRules[0]?.['AllowedOrigins']).toEqual(['*']);
  });

  it('keeps the stateful stack free of the API stack, and grants the call s3:PutBucketCORS on the documents bucket only', () => {
    const built = buildStacks();

    const policies = JSON.stringify(built.apiTemplate.findResources('AWS::IAM::Policy'));
    const statement = Object.values(built.apiTemplate.findResources('AWS::IAM::Policy'))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[])
      .filter((entry) => JSON.stringify(entry.Action).includes('s3:PutBucketCORS'));

    expect(built.api.dependencies).toContain(built.stateful);
    expect(built.stateful.dependencies).toEqual([]);
    expect(JSON.stringify(built.statefulTemplate.toJSON())).not.toContain('Fn::ImportValue');
    expect(statement).toHaveLength(1);
    expect(statement[0]!.Action).toBe('s3:PutBucketCORS');
    expect(JSON.stringify(statement[0]!.Resource)).toMatch(/DocumentsBucket.*Arn/);
    expect(policies).not.toContain('"s3:*"');
  });

  it('writes no rule without the edge, where there is no console', () => {
    const built = buildStacks({ edge: false });

    expect(Object.keys(built.apiTemplate.findResources('Custom::ConsoleUploadCors'))).toEqual([]);
  });
});
