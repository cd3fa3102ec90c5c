/**
 * Every call the console makes to the API, in one place, through the typed client of client/src (generated
 * from docs/api/openapi.json). The token comes from session.ts at each request; a 401 is answered by one
 * refresh and one retry. Failures become {@link ApiError}, worded from the P error body.
 */
import { createDocServiceClient, type paths, type Schema } from '../../client/src';
import { session, setRefresher, setSession, type Session } from './session';

export type Document = Schema<'Document'>;
export type DocumentSummary = Schema<'DocumentSummary'>;
export type Pagination = Schema<'Pagination'>;
export type Label = Schema<'Label'>;
export type Source = Schema<'Source'>;
export type SyncStatus = Schema<'SyncStatus'>;
export type Notification = Schema<'Notification'>;
export type Settings = Schema<'Settings'>;
export type User = Schema<'User'>;
export type OcrJob = Schema<'OcrJob'>;
export type OcrQueueStatus = Schema<'OcrQueueStatus'>;
export type SearchResults = Schema<'SearchResults'>;
export type WorkspaceUsage = Schema<'WorkspaceUsage'>;
export type ApiToken = Schema<'ApiToken'>;
export type Webhook = Schema<'Webhook'>;
export type WebhookDelivery = Schema<'WebhookDelivery'>;
export type Rule = Schema<'Rule'>;
export type AuditEntry = Schema<'AuditEntry'>;
export type WorkspaceExport = Schema<'WorkspaceExport'>;
export type WorkspaceOverview = Schema<'WorkspaceOverview'>;

/** A field the server refused, from `details` of a VALIDATION_ERROR. */
export interface FieldProblem {
  field: string;
  reason: string;
}

/** A refused or failed request, in words for the page. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: FieldProblem[] = [],
    /** For 429 and 503: when to try again, in seconds. */
    readonly retryAfterSeconds: number | null = null,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

function fieldsOf(details: Record<string, unknown>): FieldProblem[] {
  const list = Array.isArray(details['issues']) ? details['issues'] : [];
  const fields: FieldProblem[] = [];
  for (const item of list as unknown[]) {
    if (item && typeof item === 'object' && 'field' in item) {
      const { field, reason, message } = item as { field?: unknown; reason?: unknown; message?: unknown };
      fields.push({ field: String(field), reason: String(reason ?? message ?? 'is not valid') });
    }
  }
  if (!fields.length && typeof details['field'] === 'string') fields.push({ field: details['field'], reason: String(details['reason'] ?? 'is not valid') });
  return fields;
}

function retryAfterOf(response: Response): number | null {
  const retryAfter = Number(response.headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return retryAfter;
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(1, Math.ceil(reset - Date.now() / 1000));
  return null;
}

/** The error a failed response stands for, from its P body when it has one. */
export function errorOf(response: Response, body: unknown): ApiError {
  const error = (body as ErrorBody | undefined)?.error;
  const details = error?.details ?? {};
  const retry = response.status === 429 || response.status === 503 ? retryAfterOf(response) : null;
  let message = error?.message ?? `The server answered ${response.status} ${response.statusText}`.trim();
  if (response.status === 429) message = `Too many requests: try again in ${retry ?? 60} s.`;
  return new ApiError(message, response.status, error?.code ?? 'HTTP_ERROR', fieldsOf(details), retry, details);
}

const origin = location.origin;
const client = createDocServiceClient({ baseUrl: origin });
client.use({
  onRequest({ request }) {
    const token = session()?.token;
    if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
});

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Runs a request; on 401 refreshes the token once and runs it again. Throws {@link ApiError} on failure. */
async function call<T>(request: () => Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await request();
    if (result.response.status === 401 && session() && (await refresh())) result = await request();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('The server could not be reached. Check the connection and try again.', 0, 'NETWORK');
  }
  if (!result.response.ok) throw errorOf(result.response, result.error);
  return result.data as T;
}

const toSession = (answer: { token: string; expires_at: string; user: Session['user'] }): Session => ({
  token: answer.token,
  expiresAt: Date.parse(answer.expires_at),
  user: answer.user,
});

let refreshing: Promise<boolean> | null = null;

/** Trades the token for a fresh one (one refresh at a time); false, and signed out, when refused. */
export function refresh(): Promise<boolean> {
  const current = session();
  if (!current) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const { data, response } = await client.POST('/api/auth/refresh', { headers: { authorization: `Bearer ${current.token}` } });
      if (!response.ok || !data) {
        if (response.status === 401) setSession(null);
        return false;
      }
      setSession({ ...toSession(data), user: data.user });
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}
setRefresher(refresh);

// Authentication

export async function signIn(username: string, password: string): Promise<void> {
  const answer = await call(() => client.POST('/api/auth/login', { body: { username, password } }));
  setSession(toSession(answer));
}

/** Takes the session an SSO sign-in left in the page's fragment (OIDC_FRONTEND_URL), if any. */
export async function adoptFragmentSession(token: string): Promise<void> {
  setSession({ token, expiresAt: Date.now() + 5 * 60_000, user: { id: '', username: '', email: '', role: 'viewer' } });
  if (!(await refresh())) throw new ApiError('The single sign-on session could not be used. Sign in again.', 401, 'UNAUTHORIZED');
}

export async function register(username: string, email: string, password: string): Promise<void> {
  await call(() => client.POST('/api/auth/register', { body: { username, email, password } }));
}

export async function signOut(): Promise<void> {
  try {
    if (session()) await call(() => client.POST('/api/auth/logout'));
  } finally {
    setSession(null);
  }
}

/** Whether the deployment has single sign-on: its login answers with a redirect rather than an error. */
export async function ssoAvailable(): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/api/auth/oidc/login`, { method: 'GET', redirect: 'manual' });
    return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  } catch {
    return false;
  }
}

export const SSO_LOGIN_URL = '/api/auth/oidc/login';

// Documents

export type DocumentQuery = NonNullable<paths['/api/documents']['get']['parameters']['query']>;

export const listDocuments = (query: DocumentQuery) => call(() => client.GET('/api/documents', { params: { query } }));
export const getDocument = (id: string) => call(() => client.GET('/api/documents/{id}', { params: { path: { id } } }));
export const updateDocument = (id: string, body: { title?: string; labels?: string[]; metadata?: Record<string, string> }) =>
  call(() => client.PUT('/api/documents/{id}', { params: { path: { id } }, body }));
export const deleteDocument = (id: string) => call(() => client.DELETE('/api/documents/{id}', { params: { path: { id } } }));
export const retryOcr = (id: string, language?: string) =>
  call(() => client.POST('/api/documents/{id}/retry-ocr', { params: { path: { id } }, body: language ? { language } : {} }));

/** The thumbnail as an object URL (the caller revokes it); null when the document has none. */
export async function thumbnailUrl(id: string, size = 200): Promise<string | null> {
  const blob = await call(() =>
    client.GET('/api/documents/{id}/thumbnail', { params: { path: { id }, query: { width: size, height: size } }, parseAs: 'blob' }),
  ).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 400) return null;
    throw error;
  });
  return blob ? URL.createObjectURL(blob as Blob) : null;
}

/** Saves the original file through the browser (an object URL of the authenticated download). */
export async function download(id: string, filename: string): Promise<void> {
  const blob = await call(() => client.GET('/api/documents/{id}/download', { params: { path: { id } }, parseAs: 'blob' }));
  const url = URL.createObjectURL(blob as Blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Uploads

/** Files above this go through the presigned flow: a multipart body is at most 4 MiB in the cloud. */
export const MULTIPART_LIMIT_BYTES = 4 * 1024 * 1024;

export interface UploadOptions {
  title?: string;
  labels?: string[];
  language?: string;
  onProgress: (fraction: number) => void;
}

/** One XHR (fetch reports no upload progress), answered with its status and JSON body. */
function send(method: string, url: string, body: XMLHttpRequestBodyInit, headers: Record<string, string>, onProgress: (fraction: number) => void) {
  return new Promise<{ status: number; body: unknown; response: Response }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        parsed = null;
      }
      const responseHeaders = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at > 0) responseHeaders.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      resolve({ status: xhr.status, body: parsed, response: new Response(null, { status: xhr.status === 0 ? 599 : xhr.status, headers: responseHeaders }) });
    };
    xhr.onerror = () => reject(new ApiError('The upload could not reach the server.', 0, 'NETWORK'));
    xhr.send(body);
  });
}

async function multipartUpload(file: File, options: UploadOptions): Promise<string> {
  const form = new FormData();
  form.append('file', file, file.name);
  if (options.title) form.append('title', options.title);
  if (options.labels?.length) form.append('labels', options.labels.join(','));
  if (options.language) form.append('language', options.language);
  const post = () => send('POST', `${origin}/api/documents/upload`, form, { authorization: `Bearer ${session()?.token ?? ''}` }, options.onProgress);
  let answer = await post();
  if (answer.status === 401 && (await refresh())) answer = await post();
  if (answer.status !== 201) throw errorOf(answer.response, answer.body);
  return (answer.body as { id: string }).id;
}

async function presignedUpload(file: File, options: UploadOptions): Promise<string> {
  const grant = await call(() =>
    client.POST('/api/documents/upload-url', {
      body: {
        filename: file.name,
        size: file.size,
        ...(options.title ? { title: options.title } : {}),
        ...(options.labels?.length ? { labels: options.labels } : {}),
        ...(options.language ? { language: options.language } : {}),
      },
    }),
  );
  const headers = Object.fromEntries(Object.entries(grant.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-length')) as Record<string, string>;
  const put = await send(grant.method || 'PUT', grant.upload_url, file, headers, (fraction) => options.onProgress(fraction * 0.98));
  if (put.status < 200 || put.status >= 300) throw new ApiError(`The file storage refused the upload (${put.status}).`, put.status, 'UPLOAD_REFUSED');
  // The stored file becomes the document once checked: until then the document is 404 awaiting_file.
  for (let wait = 250; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      await getDocument(grant.document_id);
      options.onProgress(1);
      return grant.document_id;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
      const upload = error.details['upload'] as { state?: string; reason?: string } | undefined;
      if (upload?.state === 'rejected') throw new ApiError(`The file was refused: ${upload.reason ?? 'not a supported document'}.`, 400, 'UPLOAD_REJECTED');
      if (Date.parse(grant.expires_at) < Date.now()) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/**
 * Uploads one file: a multipart request up to {@link MULTIPART_LIMIT_BYTES}, the presigned flow above it (and
 * when the server refuses the multipart body as too large). Resolves with the document's id.
 */
export async function uploadFile(file: File, options: UploadOptions): Promise<string> {
  if (file.size > MULTIPART_LIMIT_BYTES) return presignedUpload(file, options);
  try {
    return await multipartUpload(file, options);
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) return presignedUpload(file, options);
    throw error;
  }
}

// Search

export const search = (q: string, options: { page: number; perPage: number; fuzzy: boolean; filters?: Record<string, unknown> }) =>
  call(() =>
    client.GET('/api/search', {
      params: {
        query: {
          q,
          page: options.page,
          per_page: options.perPage,
          fuzzy: options.fuzzy ? 'true' : 'false',
          highlight: 'true',
          ...(options.filters && Object.keys(options.filters).length ? { filters: JSON.stringify(options.filters) } : {}),
        },
      },
    }),
  );

export type AdvancedSearch = NonNullable<paths['/api/search/advanced']['post']['requestBody']>['content']['application/json'];
export const advancedSearch = (body: AdvancedSearch) => call(() => client.POST('/api/search/advanced', { body }));

// Labels

export const listLabels = () => call(() => client.GET('/api/labels')).then((answer) => answer.labels);
export const createLabel = (body: { name: string; color: string; description?: string }) => call(() => client.POST('/api/labels', { body }));
export const updateLabel = (id: string, body: { name?: string; color?: string; description?: string }) =>
  call(() => client.PUT('/api/labels/{id}', { params: { path: { id } }, body }));
export const deleteLabel = (id: string) => call(() => client.DELETE('/api/labels/{id}', { params: { path: { id } } }));
export const assignLabel = (id: string, documentIds: string[]) =>
  call(() => client.POST('/api/labels/{id}/assign', { params: { path: { id } }, body: { document_ids: documentIds } }));

// Sources

export type SourceCreate = NonNullable<paths['/api/sources']['post']['requestBody']>['content']['application/json'];
export const listSources = () => call(() => client.GET('/api/sources')).then((answer) => answer.sources);
export const createSource = (body: SourceCreate) => call(() => client.POST('/api/sources', { body }));
export const deleteSource = (id: string) => call(() => client.DELETE('/api/sources/{id}', { params: { path: { id } } }));
export const syncSource = (id: string) => call(() => client.POST('/api/sources/{id}/sync', { params: { path: { id } } }));
export const syncStatus = (id: string) => call(() => client.GET('/api/sources/{id}/sync-status', { params: { path: { id } } }));

// Notifications

export const listNotifications = () => call(() => client.GET('/api/notifications')).then((answer) => answer.notifications);
export const markRead = (id: string) => call(() => client.PUT('/api/notifications/{id}/read', { params: { path: { id } } }));
export const markAllRead = () => call(() => client.PUT('/api/notifications/read-all'));

// Settings and profile

export const getSettings = () => call(() => client.GET('/api/settings'));
export const saveSettings = (body: Partial<Settings>) => call(() => client.PUT('/api/settings', { body }));
export const changePassword = (currentPassword: string, newPassword: string) =>
  call(() => client.POST('/api/users/change-password', { body: { current_password: currentPassword, new_password: newPassword } })).then((answer) =>
    setSession(toSession(answer)),
  );

// Users (admins)

export type UserCreate = NonNullable<paths['/api/users']['post']['requestBody']>['content']['application/json'];
export const listUsers = (page: number) => call(() => client.GET('/api/users', { params: { query: { page, per_page: 50 } } }));
export const createUser = (body: UserCreate) => call(() => client.POST('/api/users', { body }));
export const setRole = (id: string, role: User['role']) => call(() => client.PUT('/api/users/{id}', { params: { path: { id } }, body: { role } }));
export const deleteUser = (id: string) => call(() => client.DELETE('/api/users/{id}', { params: { path: { id } } }));

// Usage, queue, workspaces

export const usage = () => call(() => client.GET('/api/usage'));
export const workspaceUsage = () => call(() => client.GET('/api/usage/workspaces'));
export const queueStatus = () => call(() => client.GET('/api/ocr/queue/status'));
export const queue = () => call(() => client.GET('/api/ocr/queue', { params: { query: {} } }));
export const prioritise = (id: string) => call(() => client.PUT('/api/ocr/queue/{id}/priority', { params: { path: { id } }, body: { priority: 'high' } }));
export const cancelJob = (id: string) => call(() => client.DELETE('/api/ocr/queue/{id}', { params: { path: { id } } }));

// Lifecycle: audit log, export, the operator's workspaces

export const auditLog = (page: number, action?: string) =>
  call(() => client.GET('/api/audit', { params: { query: { page, per_page: 50, ...(action ? { action } : {}) } } }));
export const startExport = () => call(() => client.POST('/api/workspace/exports'));
export const getExport = (id: string) => call(() => client.GET('/api/workspace/exports/{id}', { params: { path: { id } } }));
export const listWorkspaces = (page: number) => call(() => client.GET('/api/workspaces', { params: { query: { page, per_page: 50 } } }));

// Integrations

export const listTokens = () => call(() => client.GET('/api/tokens')).then((answer) => answer.tokens);
export type TokenCreate = NonNullable<paths['/api/tokens']['post']['requestBody']>['content']['application/json'];
export const createToken = (body: TokenCreate) => call(() => client.POST('/api/tokens', { body }));
export const deleteToken = (id: string) => call(() => client.DELETE('/api/tokens/{id}', { params: { path: { id } } }));
export const listWebhooks = () => call(() => client.GET('/api/webhooks')).then((answer) => answer.webhooks);
export type WebhookCreate = NonNullable<paths['/api/webhooks']['post']['requestBody']>['content']['application/json'];
export const createWebhook = (body: WebhookCreate) => call(() => client.POST('/api/webhooks', { body }));
export const deleteWebhook = (id: string) => call(() => client.DELETE('/api/webhooks/{id}', { params: { path: { id } } }));
export const deliveries = (id: string) => call(() => client.GET('/api/webhooks/{id}/deliveries', { params: { path: { id }, query: {} } }));
export const listRules = () => call(() => client.GET('/api/rules')).then((answer) => answer.rules);
export type RuleCreate = NonNullable<paths['/api/rules']['post']['requestBody']>['content']['application/json'];
export const createRule = (body: RuleCreate) => call(() => client.POST('/api/rules', { body }));
export const updateRule = (id: string, body: Partial<RuleCreate>) => call(() => client.PUT('/api/rules/{id}', { params: { path: { id } }, body }));
export const deleteRule = (id: string) => call(() => client.DELETE('/api/rules/{id}', { params: { path: { id } } }));
export const applyRule = (id: string) => call(() => client.POST('/api/rules/{id}/apply', { params: { path: { id } } }));

/** The WebSocket address of this origin's `/ws`. */
export const webSocketUrl = (): string => `${origin.replace(/^http/, 'ws')}/ws`;
