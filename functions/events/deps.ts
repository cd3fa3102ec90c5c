import type { ChangeLedger } from '../../shared/domain/changes/ports';
import type { ConnectionSender } from '../../shared/domain/connections/ports';
import type { PublishChangesDeps } from '../../shared/domain/events/publish-changes';
import type { EventHub } from '../../shared/domain/events/ports';
import type { OcrJobRepository } from '../../shared/domain/ocr/ports';
import type { UserRepository } from '../../shared/domain/users/ports';
import type { WorkspaceScoped } from '../../shared/container/kit/workspace-scope';

/** What the `events` stream consumer needs to push the events a change calls for. */
export const eventsDepsOf = (
  c: { eventHub: EventHub; connectionSender: ConnectionSender; users: Pick<UserRepository, 'findById'>; changeLedger: ChangeLedger } & WorkspaceScoped<{ ocrJobs: OcrJobRepository }>,
): PublishChangesDeps => ({
  hub: c.eventHub,
  connectionSender: c.connectionSender,
  workspaceOfUser: async (userId) => (await c.users.findById(userId))?.workspace_id ?? null,
  completedOn: async (workspaceId, date) => (await c.forWorkspace(workspaceId).ocrJobs.daily(date, date))[0]?.completed ?? 0,
  ledger: c.changeLedger,
});
