/** The console's shell: sign-in, then the navigation and the page the hash route names. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { adoptFragmentSession, listNotifications, signOut } from './api';
import { onLive } from './live';
import { DocumentPage } from './pages/document';
import { DocumentsPage } from './pages/documents';
import { TokensPage, WebhooksPage } from './pages/integrations';
import { LabelsPage } from './pages/labels';
import { AuditPage, ExportPage } from './pages/lifecycle';
import { LoginPage } from './pages/login';
import { NotificationsPage } from './pages/notifications';
import { QueuePage, UsagePage, WorkspacesPage } from './pages/operations';
import { RulesPage } from './pages/rules';
import { SearchPage } from './pages/search';
import { SettingsPage } from './pages/settings';
import { SourcesPage } from './pages/sources';
import { UsersPage } from './pages/users';
import { useRoute } from './router';
import { can, onSession, session, type Session } from './session';
import { applyChosenTheme, ThemeToggle } from './theme';

interface NavItem {
  path: string;
  label: string;
  show?: (session: Session) => boolean;
}

const NAV: NavItem[] = [
  { path: '/documents', label: 'Documents' },
  { path: '/search', label: 'Search' },
  { path: '/labels', label: 'Labels' },
  { path: '/sources', label: 'Sources' },
  { path: '/notifications', label: 'Notifications' },
  { path: '/settings', label: 'Settings' },
  { path: '/tokens', label: 'API tokens' },
  { path: '/webhooks', label: 'Webhooks', show: (s) => can.admin(s.user) },
  { path: '/rules', label: 'Rules', show: (s) => can.edit(s.user) },
  { path: '/users', label: 'Users', show: (s) => can.admin(s.user) },
  { path: '/usage', label: 'Usage', show: (s) => can.admin(s.user) },
  { path: '/audit', label: 'Audit log', show: (s) => can.admin(s.user) },
  { path: '/export', label: 'Export', show: (s) => can.admin(s.user) },
  { path: '/queue', label: 'OCR queue', show: (s) => can.admin(s.user) },
  { path: '/workspaces', label: 'Workspaces', show: (s) => can.admin(s.user) },
];

function useSession(): Session | null {
  const [current, setCurrent] = useState(session);
  useEffect(() => onSession(setCurrent), []);
  return current;
}

function Bell() {
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    const count = () =>
      listNotifications().then(
        (list) => setUnread(list.filter((item) => !item.read).length),
        () => undefined,
      );
    void count();
    const stop = onLive((event) => event.type === 'notification' && setUnread((value) => value + 1));
    addEventListener('notifications-read', count);
    return () => {
      stop();
      removeEventListener('notifications-read', count);
    };
  }, []);
  return (
    <a class="bell" href="#/notifications" aria-label={`Notifications, ${unread} unread`}>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="currentColor">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" />
      </svg>
      {unread ? <span class="count">{unread}</span> : null}
    </a>
  );
}

function Shell({ current }: { current: Session }) {
  const route = useRoute();
  const segments = route.path.split('/').filter(Boolean);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    setMenuOpen(false);
    document.getElementById('page-title')?.focus();
  }, [route.path]);
  let page;
  if (segments[0] === 'documents' && segments[1]) page = <DocumentPage id={segments[1]} params={route.params} />;
  else
    switch (segments[0]) {
      case 'search':
        page = <SearchPage params={route.params} />;
        break;
      case 'labels':
        page = <LabelsPage />;
        break;
      case 'sources':
        page = <SourcesPage />;
        break;
      case 'notifications':
        page = <NotificationsPage />;
        break;
      case 'settings':
        page = <SettingsPage />;
        break;
      case 'tokens':
        page = <TokensPage />;
        break;
      case 'webhooks':
        page = <WebhooksPage />;
        break;
      case 'rules':
        page = <RulesPage />;
        break;
      case 'users':
        page = <UsersPage />;
        break;
      case 'usage':
        page = <UsagePage />;
        break;
      case 'queue':
        page = <QueuePage />;
        break;
      case 'audit':
        page = <AuditPage />;
        break;
      case 'export':
        page = <ExportPage />;
        break;
      case 'workspaces':
        page = <WorkspacesPage />;
        break;
      default:
        page = <DocumentsPage params={route.params} />;
    }
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => (event.preventDefault(), document.getElementById('page-title')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="#/documents">
          docservice
        </a>
        <button type="button" class="menu" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <Bell />
        <ThemeToggle />
        <span class="who">
          {current.user.username} <span class="role">({current.user.role})</span>
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav id="nav" class={menuOpen ? 'open' : ''} aria-label="Main">
          <ul>
            {NAV.filter((item) => !item.show || item.show(current)).map((item) => (
              <li key={item.path}>
                <a href={`#${item.path}`} aria-current={segments[0] === item.path.slice(1) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main">{page}</main>
      </div>
    </>
  );
}

function App() {
  const current = useSession();
  const [ssoError, setSsoError] = useState<unknown>(null);
  useEffect(() => {
    // An SSO sign-in comes back with the token in the fragment (OIDC_FRONTEND_URL): taken, then wiped from the address.
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
    const token = fragment.get('token');
    if (token) {
      history.replaceState(null, '', `${location.pathname}#/documents`);
      adoptFragmentSession(token).catch(setSsoError);
    }
  }, []);
  return current ? <Shell current={current} /> : <LoginPage error={ssoError} />;
}

applyChosenTheme();
const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
