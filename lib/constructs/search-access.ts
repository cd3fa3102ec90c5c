import { Lazy, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { bindSearch, SEARCH_READ_ACTIONS, type DataAccess } from './bindings';

/** Every HTTP verb, for the functions that write the index or migrate it. */
export const SEARCH_WRITE_ACTIONS = ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost', 'es:ESHttpPut', 'es:ESHttpPatch', 'es:ESHttpDelete'] as const;

/** Props of {@link SearchAccess}. */
export interface SearchAccessProps {
  readonly domain: opensearch.IDomain;
  readonly logRetention: logs.RetentionDays;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * Who may use the search domain, in both places IAM looks: each function's own policy (through `bindSearch`)
 * and the domain's access policy, which names exactly the roles bound here, with the same verbs. The domain
 * lives in the stateful stack and the roles here, so the access policy is set by a deploy-time call
 * (UpdateDomainConfig) from this stack; naming the roles in the stateful stack would be a dependency cycle.
 */
export class SearchAccess extends Construct {
  private readonly readers: iam.IRole[] = [];
  private readonly writers: iam.IRole[] = [];
  /** The custom resource that writes the domain's access policy. */
  public readonly accessPolicy: cr.AwsCustomResource;

  constructor(scope: Construct, id: string, private readonly props: SearchAccessProps) {
    super(scope, id);
    const { domain } = props;
    const statement = (roles: iam.IRole[], actions: readonly string[]) => ({
      Effect: 'Allow',
      Principal: { AWS: roles.map((role) => role.roleArn) },
      Action: [...actions],
      Resource: `${domain.domainArn}/*`,
    });
    const policy = () =>
      Stack.of(this).toJsonString({
        Version: '2012-10-17',
        Statement: [
          ...(this.readers.length ? [statement(this.readers, SEARCH_READ_ACTIONS)] : []),
          ...(this.writers.length ? [statement(this.writers, SEARCH_WRITE_ACTIONS)] : []),
        ],
      });
    const call: cr.AwsSdkCall = {
      service: 'OpenSearch',
      action: 'UpdateDomainConfig',
      parameters: { DomainName: domain.domainName, AccessPolicies: Lazy.string({ produce: policy }) },
      physicalResourceId: cr.PhysicalResourceId.of('search-domain-access-policy'),
    };
    this.accessPolicy = new cr.AwsCustomResource(this, 'AccessPolicy', {
      resourceType: 'Custom::SearchDomainAccessPolicy',
      onCreate: call,
      onUpdate: call,
      // On delete the roles are gone with this stack; a policy naming deleted roles lets no one in.
      policy: cr.AwsCustomResourcePolicy.fromStatements([
        new iam.PolicyStatement({ actions: ['es:UpdateDomainConfig'], resources: [domain.domainArn] }),
      ]),
      installLatestAwsSdk: false,
      logGroup: new logs.LogGroup(this, 'LogGroup', { retention: props.logRetention, removalPolicy: props.logRemovalPolicy }),
    });
  }

  /** Binds `fn` to the domain (`bindSearch`) and names its role in the domain's access policy with the same verbs. */
  bind(fn: lambda.Function, access: DataAccess): void {
    bindSearch(fn, this.props.domain, access);
    if (!fn.role) throw new Error(`Function ${fn.node.path} has no role to name in the search domain's access policy`);
    // The policy refers to the role's ARN, so CloudFormation creates the role first.
    (access === 'read' ? this.readers : this.writers).push(fn.role);
  }
}
