import type { HttpGroup } from '../../shared/manifest';

/** The document's opening description: what holds for every operation. Operation-specific rules live with each operation. */
export const API_DESCRIPTION = `
The HTTP API of docservice, profile P of the interface specification. The WebSocket channel at \`/ws\` is
described by the AsyncAPI document at \`/api-docs/asyncapi.json\`.

**Authentication.** Log in with \`POST /api/auth/login\` and send the token as \`Authorization: Bearer <token>\`.
Tokens are workspace-scoped: every read and write is confined to the caller's workspace, and a resource of
another workspace answers exactly as one that does not exist (404 \`NOT_FOUND\`).

**Errors.** Every error answer has the body \`{"error": {"code", "message", "details", "timestamp", "request_id"}}\`;
each status has one code (400 \`VALIDATION_ERROR\`, 401 \`UNAUTHORIZED\`, 403 \`FORBIDDEN\`, 404 \`NOT_FOUND\`,
409 \`DUPLICATE_RESOURCE\`, 413 \`PAYLOAD_TOO_LARGE\`, 429 \`RATE_LIMITED\`, 500 \`INTERNAL_ERROR\`,
503 \`SERVICE_UNAVAILABLE\`). A validation error's \`details\` name the first offending \`field\` and its
\`reason\`, and list every problem in \`issues\`. A 5xx never reveals internals; quote its \`request_id\`.
Below the operations, the transport may also refuse a request before any operation sees it: 408 when a body
stops arriving, 431 when its headers are too large (both with the same error body).

**Input.** Unknown query parameters and unknown JSON fields are refused (400), as are control and
bidirectional-override characters in names people read. A body over the request size limit is 413; a file too
large for one request goes to storage through a presigned URL (\`POST /api/documents/upload-url\`).

**Lists.** Paginated lists answer \`{"data": [...], "pagination": {page, per_page, total, total_pages, has_next,
has_prev}}\` with \`page\` (default 1) and \`per_page\` (default 20, at most 100).

**Rate limits.** Each user has a bucket (100 requests a minute, bursts of 20, by default) and uploads a second
one (10 a minute); callers without a token are counted by client address. Every counted answer carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; over the limit is 429 with
\`Retry-After\`.

**Versions.** v1 is served under \`/api/\`; v2, the future version, under \`/api/v2/\` with the same surface
for now. A deprecated operation is marked so here, and its answers carry \`Deprecation\`, \`Sunset\` and a
\`Link\` to its successor, for at least 180 days before it may be removed.

**Consistency.** Writes answer once stored; search results, filtered listings and WebSocket events follow the
change stream a moment later.
`.trim();

/** One tag per endpoint group, in the manifest's order. */
export const TAGS: { name: HttpGroup; description: string }[] = [
  { name: 'auth', description: 'Register, log in and out, refresh a token, single sign-on (OIDC).' },
  { name: 'users', description: "The workspace's users and roles, the caller's profile and password, usage." },
  { name: 'settings', description: "The caller's settings." },
  { name: 'documents', description: 'Upload, list, read, edit, delete, download documents and their thumbnails.' },
  { name: 'labels', description: 'Labels: named colours documents carry.' },
  { name: 'ocr', description: 'The OCR queue, retries, priorities and OCR and system metrics.' },
  { name: 'search', description: 'Full-text search with highlights and facets, and the advanced query form.' },
  { name: 'sources', description: 'WebDAV sources synced into the workspace, on a schedule and on demand.' },
  { name: 'notifications', description: "The caller's notifications." },
  { name: 'webhooks', description: 'HTTP endpoints that hear of the workspace\'s changes: signed (Standard Webhooks), at least once, retried.' },
  { name: 'workspaces', description: "The caller's workspace (plan, status, usage, quotas) and the operator's view of every workspace: plans, suspension, deletion." },
  { name: 'portability', description: "Export of the caller's workspace to one archive, and import of such an archive into an empty workspace (its admins)." },
  { name: 'audit', description: "The workspace's audit log: every change of state with who made it, from where and in which request (its admins; the operator any workspace's). Append-only." },
  { name: 'health', description: 'Whether the service and its stores answer.' },
];
