import type { Notification } from '../../../domain/notifications/notification';
import { withoutKeys } from './keys';

/** The P notification of an item: without its keys and its owner's workspace, which only addresses its event. */
export function toNotification(item: Record<string, unknown>): Notification {
  const { workspace_id: _workspace, ...notification } = withoutKeys<Notification & { workspace_id?: string }>(item);
  return notification;
}

/** The owner's workspace an item records; null for an item written before notifications recorded it. */
export function ownerWorkspaceOf(item: Record<string, unknown> | null): string | null {
  const workspace = item?.['workspace_id'];
  return typeof workspace === 'string' ? workspace : null;
}
