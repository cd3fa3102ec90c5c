import * as z from '../../../shared/zod';
import { QUOTAS } from '../../../shared/domain/quotas/plans';
import { WORKSPACE_STATUSES } from '../../../shared/domain/workspaces/workspace';
import { MONTH_PATTERN } from '../../../shared/domain/usage/usage';
import { pageOf } from './common';
import { id, shape, timestamp } from './registry';

const count = (description: string) => z.int().check(z.gte(0), z.describe(description));

/** One quota of the workspace's plan beside its use. */
export const QuotaUse = shape(
  'QuotaUse',
  "One limit of the workspace's plan and what the workspace uses of it.",
  z.strictObject({
    quota: z.enum(QUOTAS).check(
      z.describe('`documents_stored` and `bytes_stored` (now), `ocr_pages_per_month` (this month, UTC), `sources`, `members`, `api_tokens` (now).'),
    ),
    limit: z.union([z.int().check(z.gte(0)), z.literal('unlimited')]).check(z.describe('The limit, or `unlimited`.')),
    used: z.int().check(z.describe('What is used of it.')),
  }),
);

/** `GET /api/workspace`'s answer, and a row of the operator's list. */
export const WorkspaceOverview = shape(
  'WorkspaceOverview',
  'A workspace: its plan and status, its members, this month\'s usage and its quotas.',
  z.strictObject({
    id: id(),
    name: z.string(),
    plan: z.string().check(z.describe("The plan's name (the operator's configuration).")),
    status: z.enum(WORKSPACE_STATUSES).check(z.describe('`active`; `suspended` (every request of its users answers 403 `workspace_suspended`); `deleting`.')),
    created_at: timestamp(),
    member_count: count('Its users.'),
    usage: z
      .strictObject({
        month: z.string().check(z.regex(MONTH_PATTERN)),
        documents_stored: count('Documents stored now.'),
        bytes_stored: count('Bytes of original files stored now.'),
        documents_uploaded: count('Documents created this month.'),
        documents_deleted: count('Documents deleted this month.'),
        bytes_uploaded: count('Bytes created this month.'),
        bytes_deleted: count('Bytes deleted this month.'),
        pages_ocred: count('Pages of OCR runs completed this month.'),
        pages_ocred_by_engine: z.record(z.string(), z.int().check(z.gte(0))),
        search_requests: count('Searches this month.'),
        api_requests: count('Authenticated requests this month.'),
      })
      .check(z.describe("This month's usage counters (UTC), as `GET /api/usage` counts them.")),
    quotas: z.array(QuotaUse),
  }),
);

export const WorkspacePage = shape('WorkspacePage', 'A page of every workspace, oldest first.', pageOf(WorkspaceOverview));

/** What a deletion of a workspace answers (202). */
export const ErasureAccepted = shape(
  'ErasureAccepted',
  'A deletion accepted: the workspace refuses its users from now on and is erased in the background.',
  z.strictObject({
    workspace_id: id(),
    status: z.literal('deleting'),
    requested_at: timestamp(),
  }),
);
