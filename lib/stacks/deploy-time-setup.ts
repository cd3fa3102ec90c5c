import { type CfnResource, CustomResource, Duration, type RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { ENV } from '../../shared/manifest';
import { AppFunction } from '../constructs/app-function';
import { bindSecret, bindTable } from '../constructs/bindings';
import type { SearchAccess } from '../constructs/search-access';

/** What the admin bootstrap sets up (see the AdminBootstrap resource); a new value reruns it on deploy. */
export const BOOTSTRAP_DATA_VERSION = 'label-shards-1';

/**
 * The admin bootstrap, run by CloudFormation on every deploy that changes its properties: the `bootstrap`
 * function behind a custom resource. Made in the stack's own scope, so its resources keep the stack's ids.
 */
export function createAdminBootstrap(
  stack: Stack,
  props: {
    table: dynamodb.ITable;
    adminPasswordSecret: secretsmanager.ISecret;
    adminUsername: string;
    adminEmail: string;
    logRemovalPolicy: RemovalPolicy;
  },
): AppFunction {
  const bootstrap = new AppFunction(stack, 'Bootstrap', {
    group: 'bootstrap',
    environment: { [ENV.adminUsername]: props.adminUsername, [ENV.adminEmail]: props.adminEmail },
    // Moving old labels' memberships to their shards takes a transaction each (docs/hot-counters.md).
    timeout: Duration.minutes(15),
    logRemovalPolicy: props.logRemovalPolicy,
  });
  bindTable(bootstrap.function, props.table, 'readWrite');
  bindSecret(bootstrap.function, props.adminPasswordSecret, ENV.adminPasswordSecretArn);
  const bootstrapProvider = new Provider(stack, 'AdminBootstrapProvider', {
    onEventHandler: bootstrap.function,
    logGroup: new logs.LogGroup(stack, 'AdminBootstrapProviderLogGroup', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy,
    }),
  });
  new CustomResource(stack, 'AdminBootstrap', {
    serviceToken: bootstrapProvider.serviceToken,
    resourceType: 'Custom::AdminBootstrap',
    // DataVersion moves with each change of what ensureAdmin sets up, so that upgrading a stack runs it again
    // (an unchanged resource is not updated): 'workspaces-1' created the first workspace and moved users into it;
    // 'workspaces-2' also moves the documents, labels, OCR jobs, uploads and counters written before workspaces;
    // 'label-shards-1' also moves every label created before labels were sharded to its shards.
    properties: { AdminUsername: props.adminUsername, AdminEmail: props.adminEmail, DataVersion: BOOTSTRAP_DATA_VERSION },
  });
  return bootstrap;
}

/**
 * Search index setup: the deploy, not the first request, creates or migrates the index. Every function that
 * reads or writes it (`indexUsers`) is created or updated after it, so new code never meets an old mapping.
 */
export function createSearchIndexSetup(
  stack: Stack,
  props: { searchAccess: SearchAccess; indexReplicas: number; indexUsers: AppFunction[]; logRemovalPolicy: RemovalPolicy },
): { function: AppFunction; resource: CustomResource } {
  const searchIndexSetup = new AppFunction(stack, 'SearchIndexSetup', {
    group: 'search-index-setup',
    environment: { [ENV.searchIndexReplicas]: String(props.indexReplicas) },
    // A migration copies the index (_reindex) while the deploy waits.
    timeout: Duration.minutes(15),
    logRemovalPolicy: props.logRemovalPolicy,
  });
  props.searchAccess.bind(searchIndexSetup.function, 'readWrite');
  const searchIndexSetupProvider = new Provider(stack, 'SearchIndexSetupProvider', {
    onEventHandler: searchIndexSetup.function,
    logGroup: new logs.LogGroup(stack, 'SearchIndexSetupProviderLogGroup', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy,
    }),
  });
  const resource = new CustomResource(stack, 'SearchIndex', {
    serviceToken: searchIndexSetupProvider.serviceToken,
    resourceType: 'Custom::SearchIndexSetup',
    // Any new code of the setup (a new mapping or INDEX_VERSION is in its bundle) or replica count re-runs it;
    // the migration does nothing when the index is already current.
    properties: { CodeVersion: searchIndexSetup.function.currentVersion.version, Replicas: props.indexReplicas },
  });
  resource.node.addDependency(props.searchAccess.accessPolicy);
  // The function resources only: their roles must exist first, for the domain's access policy to name them.
  for (const user of props.indexUsers) {
    (user.function.node.defaultChild as CfnResource).addDependency(resource.node.defaultChild as CfnResource);
  }
  return { function: searchIndexSetup, resource };
}
