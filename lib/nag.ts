import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * Why each cdk-nag AwsSolutions finding that remains is acceptable. A finding is matched by its rule (with the
 * finding in brackets, e.g. `AwsSolutions-IAM5[Resource::*]`) and the path of the construct it is on; both are
 * patterns, since CDK's generated names (export names, hashes) are not known here. Anything not matched here
 * fails the infra test, and so does an entry that matches nothing.
 */
export interface NagAcknowledgment {
  readonly rule: RegExp;
  readonly path: RegExp;
  readonly reason: string;
}

// Paths start with the stack's name: `DocService-Api`, or `DocService-<Stage>-Api` with a stage (lib/stage.ts).
// A function's construct is `<Name>/Function`, or `<Name>/Function/Function` inside a construct of its own (the eraser).
const FUNCTION_POLICY = /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/[A-Za-z]+\/(?:Function\/)?Function\/ServiceRole\/DefaultPolicy\/Resource$/;
/** CDK's BucketDeployment handler, which copies the API contract and Swagger UI into their bucket at deploy time. */
const DOCS_DEPLOYMENT = /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Custom::CDKBucketDeployment[0-9A-F]+\//;

export const NAG_ACKNOWLEDGMENTS: readonly NagAcknowledgment[] = [
  {
    rule: /^AwsSolutions-APIG4$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/(HttpApi|WebSocketApi)\//,
    reason:
      'No API Gateway authorizer on purpose: every function verifies the bearer JWT itself (the same code in both ' +
      'runtimes); health, login, register and refresh are public by the spec, and WebSocket clients authenticate ' +
      'with an auth message after connecting, which the realtime function checks.',
  },
  {
    rule: /^AwsSolutions-L1$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/[A-Za-z]+\/(?:Function\/)?Function\/Resource$/,
    reason:
      'Node.js 22 is the runtime the bundles target (esbuild --target=node22) and the benchmarks measure, and Lambda ' +
      'supports it until 2027; moving to a newer runtime is a bundle-target change with its own measurements.',
  },
  {
    rule: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole\]$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-(Api|Stateful)\//,
    reason:
      "CDK's default execution policy (our functions, the custom-resource frameworks, the bucket-notification " +
      'handler): logs:CreateLogGroup, CreateLogStream and PutLogEvents, nothing else.',
  },
  {
    rule: /^AwsSolutions-IAM4\[Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AmazonAPIGatewayPushToCloudWatchLogs\]$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/ApiGatewayCloudWatchRole\/Resource$/,
    reason: "The policy AWS documents for API Gateway's account logging role, which WebSocket access logs need.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::\*\]$/,
    path: FUNCTION_POLICY,
    reason:
      'X-Ray (PutTraceSegments, PutTelemetryRecords), Textract text detection and DynamoDB ListStreams (what the ' +
      "stream consumers' event source lists, stream names only) have no resource-level permissions; the " +
      'least-privilege infra test checks that no other action is allowed on "*".',
  },
  {
    rule: /^AwsSolutions-IAM5\[Action::s3:(Abort|DeleteObject|GetBucket|GetObject|List)\*\]$/,
    path: FUNCTION_POLICY,
    reason: "CDK's bucket grants (grantRead, grantReadWrite) on the documents bucket only; the wildcards cover object versions and tags.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::DocService(?:-[A-Z][a-z0-9]*)?-Stateful:ExportsOutputFnGetAttDocumentsBucket[0-9A-F]+Arn[0-9A-F]+\/\*\]$/,
    path: FUNCTION_POLICY,
    reason: 'Objects of the documents bucket: keys carry document ids made at run time.',
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::DocService(?:-[A-Z][a-z0-9]*)?-Stateful:ExportsOutputFnGetAttDocumentsBucket[0-9A-F]+Arn[0-9A-F]+\/workspaces\/\*\/(exports|imports)\/\*\]$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Portability\/Function\/ServiceRole\/DefaultPolicy\/Resource$/,
    reason:
      "The portability API's presigned links: export archives (read) and import archives (read and write) under each " +
      "workspace's prefix, whose workspace and job ids are made at run time; no document's file.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::DocService(?:-[A-Z][a-z0-9]*)?-Stateful:ExportsOutputFnGetAttTable[0-9A-F]+Arn[0-9A-F]+\/index\/\*\]$/,
    path: FUNCTION_POLICY,
    reason: "The table's global secondary indexes (gsi1), from CDK's table grants.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::DocService(?:-[A-Z][a-z0-9]*)?-Stateful:ExportsOutputFnGetAttSearchDomain[0-9A-F]+Arn[0-9A-F]+\/\*\]$/,
    path: FUNCTION_POLICY,
    reason:
      "Index paths of the search domain (the alias and its versioned indexes); the HTTP verbs are limited per function " +
      '(searchers: GET, HEAD, POST).',
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<WebSocketApi[0-9A-F]+>\/prod\/(POST|DELETE)\/@connections\/\*\]$/,
    path: FUNCTION_POLICY,
    reason: "Connection ids are made at run time; the grant is this API's prod stage, POST and DELETE only.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::<[A-Za-z]+Function[0-9A-F]+\.Arn>:\*\]$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/[A-Za-z]+Provider\/framework-onEvent\/ServiceRole\/DefaultPolicy\/Resource$/,
    reason: "CDK's custom-resource provider framework invokes any version of its one handler function.",
  },
  {
    rule: /^AwsSolutions-SQS3$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/ChangeConsumers\/[a-z-]+-failures\/Resource$/,
    reason:
      "These queues are the stream consumers' on-failure destinations, dead-letter queues in all but name: each " +
      'message describes a batch of changes Lambda gave up on, and an alarm fires on the first.',
  },
  {
    rule: /^AwsSolutions-S1$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/DocumentsBucket\/Resource$/,
    reason:
      'Requests reach objects through the functions (logged with request ids) and presigned URLs the API logs when ' +
      'it hands them out; S3 server access logs would duplicate that at storage cost. Enable CloudTrail S3 data ' +
      'events when an audit trail of object access is required.',
  },
  {
    rule: /^AwsSolutions-OS1$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/SearchDomain\/Resource$/,
    reason:
      'The functions run outside a VPC (a VPC would need NAT gateways or endpoints, about $32 a month per zone); ' +
      'the domain takes only HTTPS (TLS 1.2+) requests signed with SigV4 by the roles its access policy names.',
  },
  {
    rule: /^AwsSolutions-OS3$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/SearchDomain\/Resource$/,
    reason: 'Access is granted to IAM roles (the functions), not IP addresses: Lambda functions have no fixed address.',
  },
  {
    rule: /^AwsSolutions-OS5$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/SearchDomain\/Resource$/,
    reason:
      "No anonymous access: the domain's access policy names only the functions' roles. It is set at deploy time by " +
      "the API stack (SearchDomainAccessPolicy), where the roles are, so it is not in this stack's template.",
  },
  {
    rule: /^AwsSolutions-OS9\[LogExport::(SEARCH|INDEX)_SLOW_LOGS\]$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/SearchDomain\/Resource$/,
    reason:
      'Slow logs emit only with per-index thresholds, which the index does not set; slow searches show in the HTTP ' +
      'latency alarm and on the dashboard, and cluster health, storage and JVM pressure are alarmed.',
  },
  {
    rule: /^AwsSolutions-SMG4$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/JwtSecret\/Resource$/,
    reason:
      'Rotating the JWT signing key signs every user out at once: the verifier reads one key. Rotation needs a key ' +
      'overlap (verify with old and new) first; rotate by hand with put-secret-value until then.',
  },
  {
    rule: /^AwsSolutions-SMG4$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Stateful\/AdminPasswordSecret\/Resource$/,
    reason:
      "The first admin's password is read once, when the deploy creates the admin; the admin then changes it through " +
      'the API, and the secret is no longer used.',
  },
  {
    rule: /^AwsSolutions-SMG4$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/OriginToken\/Resource$/,
    reason:
      "The edge's origin token is written into the distribution's origin header at deploy time; a rotation outside " +
      'a deploy would make every request a 403 until the next one. A deploy that replaces the secret rotates it.',
  },
  {
    rule: /^AwsSolutions-S1$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/(Docs|Console)\/Bucket\/Resource$/,
    reason:
      'The docs and console buckets hold the public API contract, Swagger UI and web console files, written only by ' +
      "the deployment and read only by the distribution (origin access control); viewers' requests are in CloudFront's metrics.",
  },
  {
    rule: /^AwsSolutions-L1$/,
    path: new RegExp(`${DOCS_DEPLOYMENT.source}Resource$`),
    reason: "CDK's own BucketDeployment handler, whose runtime CDK pins and moves with aws-cdk-lib; it runs only during a deploy.",
  },
  {
    rule: /^AwsSolutions-IAM5\[Action::s3:(Abort|DeleteObject|GetBucket|GetObject|List)\*\]$/,
    path: new RegExp(`${DOCS_DEPLOYMENT.source}ServiceRole/DefaultPolicy/Resource$`),
    reason:
      "CDK's grants to its BucketDeployment handler: read of the CDK assets bucket and read-write of the docs and console buckets " +
      'only (it syncs and prunes the files); the wildcards cover object versions and tags.',
  },
  {
    rule: /^AwsSolutions-IAM5\[Resource::(arn:<AWS::Partition>:s3:::cdk-[a-z0-9]+-assets-<AWS::AccountId>-<AWS::Region>|<Edge(Docs|Console)Bucket[0-9A-F]+\.Arn>)\/\*\]$/,
    path: new RegExp(`${DOCS_DEPLOYMENT.source}ServiceRole/DefaultPolicy/Resource$`),
    reason: 'Objects of the CDK assets bucket (the staged files) and of the docs and console buckets: the keys are the deployed files.',
  },
  {
    rule: /^AwsSolutions-CFR1$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/Distribution\/Resource$/,
    reason: 'A document service for any tenant anywhere: no country is refused by default (an operator adds a geo restriction).',
  },
  {
    rule: /^AwsSolutions-CFR2$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/Distribution\/Resource$/,
    reason:
      'No WAF by default (a web ACL costs a monthly fee per deployment): per-user and per-address rate limits in the ' +
      'functions and the gateway throttles bound traffic; an operator can attach a web ACL to the distribution.',
  },
  {
    rule: /^AwsSolutions-CFR3$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/Distribution\/Resource$/,
    reason:
      "Every request the edge forwards is in the HTTP stage's access log; what the edge answers itself (the 413) is " +
      "in CloudFront's request and 4xx metrics. Standard logs would need one more bucket for no more information.",
  },
  {
    rule: /^AwsSolutions-CFR4$/,
    path: /^DocService(?:-[A-Z][a-z0-9]*)?-Api\/Edge\/Distribution\/Resource$/,
    reason:
      "The distribution asks for TLSv1.2_2021, which CloudFront applies with a custom domain's certificate; on the " +
      'default *.cloudfront.net certificate CloudFront fixes the policy itself. The origin leg is TLS 1.2 only.',
  },
];

/** A finding: the rule as cdk-nag names it and the path of the construct it is on. */
export interface NagFinding {
  readonly rule: string;
  readonly path: string;
}

/** Every AwsSolutions finding in the app that is not acknowledged (yet). */
export function awsSolutionsFindings(app: IConstruct): NagFinding[] {
  const report = new AwsSolutionsChecks().validateScope(app);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => ({ rule: violation.ruleName, path: resource.constructPath ?? resource.locations.join(',') })),
  );
}

/**
 * Acknowledges, on the construct it is on, every finding that an entry of {@link NAG_ACKNOWLEDGMENTS} matches,
 * with that entry's reason (CDK's `Validations.of(...).acknowledge`, which cdk-nag reads). Returns the entries
 * that matched nothing, which are stale.
 */
export function acknowledgeNagFindings(app: IConstruct, findings: NagFinding[] = awsSolutionsFindings(app)): NagAcknowledgment[] {
  const byPath = new Map(app.node.findAll().map((construct) => [construct.node.path, construct]));
  const used = new Set<NagAcknowledgment>();
  for (const finding of findings) {
    const entry = NAG_ACKNOWLEDGMENTS.find((candidate) => candidate.rule.test(finding.rule) && candidate.path.test(finding.path));
    const construct = byPath.get(finding.path);
    if (!entry || !construct) continue;
    Validations.of(construct).acknowledge({ id: finding.rule, reason: entry.reason });
    used.add(entry);
  }
  return NAG_ACKNOWLEDGMENTS.filter((entry) => !used.has(entry));
}
