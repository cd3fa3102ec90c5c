/**
 * Issue 37: the audit log in the cloud. A table of its own, kept 365 days by TTL, whose grants are append-only:
 * the functions may put entries (auth: logins; events: what it derives from the stream) and query them (audit),
 * and none may update or delete one, however its grant is written.
 */
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { buildStacks, environmentOf, logicalIdOf, statementsOf } from './build-stacks';

const stacks = buildStacks();
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const auditArn = () => ({ 'Fn::GetAtt': [logicalIdOf(stacks.stateful.auditTable), 'Arn'] });
/** Whether a statement's resource reaches the audit table (its ARN, a pattern under it, or everything). */
const reachesAudit = (resource: unknown): boolean => resource === '*' || same(resource, auditArn()) || JSON.stringify(resource).includes(logicalIdOf(stacks.stateful.auditTable));
const auditActionsOf = (name: ApiFunctionName): string[] =>
  statementsOf(stacks, name)
    .filter((statement) => statement.Resource.some(reachesAudit))
    .flatMap((statement) => statement.Action)
    .filter((action) => action.startsWith('dynamodb:'));

describe('audit table', () => {
  it('expires entries by TTL and keeps point-in-time recovery', () => {
    const { Properties } = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(stacks.stateful.auditTable)];

    expect(Properties).toMatchObject({
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  it('has no stream: no function follows it', () => {
    const { Properties } = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(stacks.stateful.auditTable)];

    expect(Properties.StreamSpecification).toBeUndefined();
  });
});

describe('audit grants', () => {
  it('let no function update or delete an entry', () => {
    const changing = FUNCTION_NAMES.flatMap((name) =>
      auditActionsOf(name)
        .filter((action) => /^dynamodb:(\*|Delete|Update|BatchWrite|PartiQLDelete|PartiQLUpdate|PartiQL\*|DeleteTable|UpdateTable|RestoreTable|UpdateTimeToLive)/.test(action))
        .map((action) => `${name}: ${action}`),
    );

    expect(changing).toEqual([]);
  });

  it('let the auth and events functions put entries, and the audit function query them', () => {
    const granted = Object.fromEntries(
      FUNCTION_NAMES.map((name) => [name, auditActionsOf(name).filter((action) => action === 'dynamodb:PutItem' || action === 'dynamodb:Query')] as const).filter(([, actions]) => actions.length > 0),
    );

    expect(granted).toMatchObject({ auth: ['dynamodb:PutItem'], events: ['dynamodb:PutItem'], audit: ['dynamodb:Query'] });
  });

  it('name the table to the functions granted it', () => {
    const named = FUNCTION_NAMES.filter((name) => ENV.auditTableName in environmentOf(stacks, name));

    expect(named).toEqual(expect.arrayContaining(['auth', 'events', 'audit']));
  });
});
