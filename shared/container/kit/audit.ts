import { DynamoAuditLog } from '../../adapters/aws/dynamodb/audit-log';
import { auditedAuthentication } from '../../adapters/audited-authentication';
import { noAuthenticationEvents, type AuditLog, type AuthenticationEvents } from '../../domain/audit/ports';
import type { Clock } from '../../domain/clock';
import type { Table } from './table';

/** The audit log over its own, append-only table. */
export const auditLog = (db: Table['db'], auditTableName: string): AuditLog => new DynamoAuditLog(db, auditTableName);

/** Where logins are recorded: the audit log where the function has its table, nowhere otherwise (a test's runtime). */
export const authenticationEvents = (db: Table['db'], auditTableName: string | undefined, clock: Clock): AuthenticationEvents =>
  auditTableName ? auditedAuthentication(auditLog(db, auditTableName), clock) : noAuthenticationEvents;

/** The audit log over its table and the recording of logins in it, as the local runtime takes them. */
export const auditOver =
  (auditTableName: string) =>
  (db: Table['db'], clock: Clock): { audit: AuditLog; authEvents: AuthenticationEvents } => {
    const audit = auditLog(db, auditTableName);
    return { audit, authEvents: auditedAuthentication(audit, clock) };
  };
