/** Notifications: the list, mark one or all read; new ones arrive live. */
import { useEffect } from 'preact/hooks';
import { listNotifications, markAllRead, markRead } from '../api';
import { onLive } from '../live';
import { ErrorNote, formatDate, Page, useAction, useLoad } from '../ui';

const announceRead = () => dispatchEvent(new Event('notifications-read'));

export function NotificationsPage() {
  const list = useLoad(listNotifications, []);
  const action = useAction();
  useEffect(() => onLive((event) => event.type === 'notification' && list.reload()), []);
  return (
    <Page
      title="Notifications"
      actions={
        <button type="button" onClick={() => void action.run(markAllRead).then(() => (list.reload(), announceRead()))}>
          Mark all read
        </button>
      }
    >
      <ErrorNote error={action.error ?? list.error} />
      <ul class="cards">
        {(list.value ?? []).map((item) => (
          <li key={item.id} class={`card${item.read ? '' : ' unread'}`}>
            <h2>{item.title}</h2>
            <p>{item.message}</p>
            <p class="sub">
              {formatDate(item.created_at)} {item.read ? '· read' : '· unread'}
            </p>
            {'document_id' in (item.data ?? {}) ? <a href={`#/documents/${String((item.data as { document_id: string }).document_id)}`}>Open the document</a> : null}
            {!item.read ? (
              <button type="button" onClick={() => void action.run(() => markRead(item.id)).then(() => (list.reload(), announceRead()))}>
                Mark read<span class="visually-hidden"> {item.title}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {list.value && !list.value.length ? <p>No notifications.</p> : null}
    </Page>
  );
}
