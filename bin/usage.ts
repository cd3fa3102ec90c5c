/**
 * Prints a deployment's usage of one month as CSV, one row per workspace, for a billing system:
 * `npm run usage -- --month YYYY-MM` (default: the current month, UTC) with TABLE_NAME and AWS_REGION set (the
 * stack's outputs) and credentials allowed to read the table. Columns: see shared/domain/usage/usage-csv.ts.
 */
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { DynamoUsageRepository } from '../shared/adapters/aws/dynamodb/usage-repository';
import { DynamoWorkspaceRepository } from '../shared/adapters/aws/dynamodb/workspace-repository';
import { systemClock } from '../shared/domain/clock';
import { everyWorkspaceUsage } from '../shared/domain/usage/get-usage';
import { MONTH_PATTERN } from '../shared/domain/usage/usage';
import { usageCsv } from '../shared/domain/usage/usage-csv';
import { parseCommandLine, runCommand, usageError, type CommandSpec } from './support/cli';
import { deploymentTable } from './support/target';

const options = {
  month: { type: 'string', valueName: 'YYYY-MM', description: 'the calendar month (UTC) to report', defaultText: 'the current month' },
} as const;

const spec = {
  name: 'usage',
  usage: 'npm run usage -- [--month YYYY-MM]',
  summary: [
    "Prints a deployment's usage of one month as CSV on stdout, one row per workspace (columns: see",
    'shared/domain/usage/usage-csv.ts), for a billing system.',
  ],
  options,
  settings: [
    {
      heading: 'Environment',
      entries: [
        { name: 'TABLE_NAME', description: 'the TableName output of the DocService-Api stack (required)' },
        { name: 'AWS_REGION', description: "the stack's region (else the SDK's own lookup)" },
      ],
    },
  ],
  notes: ["The credentials (AWS_PROFILE or the SDK's other sources) must allow reading the table."],
} satisfies CommandSpec<typeof options>;

await runCommand(spec.name, async () => {
  const { month } = parseCommandLine(spec);
  if (month !== undefined && !MONTH_PATTERN.test(month)) throw usageError(`--month must be a month as YYYY-MM, not "${month}"`);
  const { tableName, region } = deploymentTable();
  const db = createDynamoDocumentClient(region ? { region } : {});
  const report = await everyWorkspaceUsage(
    { usage: new DynamoUsageRepository(db, tableName), workspaces: new DynamoWorkspaceRepository(db, tableName), clock: systemClock },
    month,
  );
  process.stdout.write(usageCsv(report.workspaces));
});
