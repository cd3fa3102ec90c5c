import * as z from '../zod';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { DynamoAuditLog } from '../adapters/aws/dynamodb/audit-log';
import { envText, parseEnv } from './config';

const auditEnvSchema = z.lazy(() => z.object({ AUDIT_TABLE_NAME: envText }));

/** The audit table (AUDIT_TABLE_NAME): where the `events` consumer appends what it derives from the stream. */
export const awsAuditLog = (env: NodeJS.ProcessEnv = process.env): DynamoAuditLog =>
  new DynamoAuditLog(createDynamoDocumentClient(), parseEnv(auditEnvSchema, env).AUDIT_TABLE_NAME);

const optionalAuditEnvSchema = z.lazy(() => z.object({ AUDIT_TABLE_NAME: z.optional(envText) }));

/** The audit table's name where the stack gave the function one (the auth and audit functions). */
export const auditTableNameOf = (env: NodeJS.ProcessEnv): string | undefined => parseEnv(optionalAuditEnvSchema, env).AUDIT_TABLE_NAME;
