import * as z from '../../../shared/zod';
import { pageOf } from './common';
import { shape, timestamp } from './registry';

const nullableText = (description: string) => z.nullable(z.string()).check(z.describe(description));

/** One entry of a workspace's audit log. */
export const AuditEntry = shape(
  'AuditEntry',
  'One change of state of the workspace: who made it, from where, what it was and to what. Identifiers and names only, never content.',
  z.strictObject({
    id: z.string().check(z.describe("The entry's id, unique in the workspace's log.")),
    workspace_id: z.uuid(),
    at: timestamp().check(z.describe('When it happened (UTC).')),
    action: z.string().check(
      z.describe(
        '`<target type>.<verb>`: `login.succeeded`, `login.failed`, `document.created|updated|deleted|labelled|unlabelled`, `label.*`, `rule.*`, `source.*`, `source.sync_started`, `webhook.*`, `token.created|deleted`, `user.created|updated|role_changed|deleted`, `settings.*`, `workspace.created|renamed|plan_changed|status_changed|deletion_requested|erased`, `export.requested|updated`, `import.requested|updated`, `ocr_job.*`.',
      ),
    ),
    actor: z.strictObject({
      user_id: z.nullable(z.uuid()).check(z.describe('The acting user; null before authentication (a failed login) and for the service itself (a scheduled sync, an erasure).')),
      token_id: z.nullable(z.string()).check(z.describe('The API token the request presented, if any.')),
      ip: nullableText("The client's address."),
      user_agent: nullableText("The client's User-Agent."),
      request_id: nullableText("The request's id (its X-Request-Id)."),
    }),
    target: z.strictObject({
      type: z.string(),
      id: z.string(),
      name: z.optional(z.string().check(z.describe("The target's name or filename, as it was."))),
    }),
    details: z.optional(z.record(z.string(), z.unknown()).check(z.describe('What changed: field names (never their values), a role, plan or status from and to.'))),
  }),
);

export const AuditPage = shape('AuditPage', "A page of the workspace's audit log, newest first.", pageOf(AuditEntry));
