/**
 * Prints a deployment's usage of one month as CSV, one row per workspace, for a billing system:
 * `npm run usage -- --month YYYY-MM` (default: the current month, UTC) with TABLE_NAME and AWS_REGION set (the
 * stack's outputs) and credentials allowed to read the table. Columns: see shared/domain/usage/usage-csv.ts.
 */
import { parseArgs } from 'node:util';
import * as z from '../shared/zod';
import { createDynamoDocumentClient } from '../shared/adapters/aws/clients';
import { DynamoUsageRepository } from '../shared/adapters/aws/dynamodb/usage-repository';
import { DynamoWorkspaceRepository } from '../shared/adapters/aws/dynamodb/workspace-repository';
import { envText, parseEnv } from '../shared/container/config';
import { systemClock } from '../shared/domain/clock';
import { everyWorkspaceUsage } from '../shared/domain/usage/get-usage';
import { MONTH_PATTERN } from '../shared/domain/usage/usage';
import { usageCsv } from '../shared/domain/usage/usage-csv';

const { values } = parseArgs({ options: { month: { type: 'string' } } });
if (values.month !== undefined && !MONTH_PATTERN.test(values.month)) {
  console.error(`--month must be a month as YYYY-MM, not "${values.month}"`);
  process.exit(2);
}
const config = parseEnv(z.object({ TABLE_NAME: envText, AWS_REGION: z.optional(envText) }), process.env);
const db = createDynamoDocumentClient(config.AWS_REGION ? { region: config.AWS_REGION } : {});
const report = await everyWorkspaceUsage(
  { usage: new DynamoUsageRepository(db, config.TABLE_NAME), workspaces: new DynamoWorkspaceRepository(db, config.TABLE_NAME), clock: systemClock },
  values.month,
);
process.stdout.write(usageCsv(report.workspaces));
