import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';
import { registerBody, loginBody, oidcCallbackQuery } from '../../functions/auth/schemas';
import { bulkUploadFields, listDocumentsQuery, thumbnailQuery, updateDocumentBody, uploadFields, uploadUrlBody } from '../../functions/documents/schemas';
import { assignLabelBody, createLabelBody, createRuleBody, updateLabelBody, updateRuleBody } from '../../functions/labels/schemas';
import { HTTP_ROUTES, v1RouteKey, v2RouteKey, type HttpGroup } from '../../shared/manifest';
import { listNotificationsQuery } from '../../functions/notifications/schemas';
import { priorityBody, queueListQuery, retryOcrBody } from '../../functions/ocr/schemas';
import { advancedSearchBody, searchQuery } from '../../functions/search/schemas';
import { updateSettingsBody } from '../../functions/settings/schemas';
import { createSourceBody, updateSourceBody } from '../../functions/sources/schemas';
import { changePasswordBody, createTokenBody, createUserBody, listTokensQuery, updateProfileBody, updateUserBody, usageQuery } from '../../functions/users/schemas';
import { createWebhookBody, updateWebhookBody } from '../../functions/webhooks/schemas';
import { changeWorkspaceBody, deleteWorkspaceBody, renameWorkspaceBody } from '../../functions/workspaces/schemas';
import { auditQuery } from '../../functions/audit/schemas';
import { createImportBody } from '../../functions/portability/schemas';
import { ERROR_STATUS } from '../../shared/domain/errors';
import { pageQuery } from '../../shared/http/fields';
import { fieldNames } from '../../shared/zod';
import { pngImage } from './fixtures';

type FuzzBody = NonNullable<RequestInit['body']>;

/** What a route takes, by name: the fuzzer sends these names (and others) with good and hostile values. */
export interface RouteModel {
  query: string[];
  body: { kind: 'json'; fields: string[] } | { kind: 'multipart'; fields: string[]; files: string[] } | null;
}

const json = (fields: string[]): RouteModel['body'] => ({ kind: 'json', fields });
const names = fieldNames;

/** The model of every v1 route; a route missing here fails the suite, so new routes get fuzzed. */
const V1_ROUTE_MODELS: Record<string, RouteModel> = {
  'POST /api/auth/register': { query: [], body: json(names(registerBody)) },
  'POST /api/auth/login': { query: [], body: json(names(loginBody)) },
  'POST /api/auth/logout': { query: [], body: null },
  'POST /api/auth/refresh': { query: [], body: null },
  'GET /api/auth/oidc/login': { query: [], body: null },
  'GET /api/auth/oidc/callback': { query: names(oidcCallbackQuery), body: null },
  'GET /api/users': { query: names(pageQuery), body: null },
  'POST /api/users': { query: [], body: json(names(createUserBody)) },
  'PUT /api/users/{id}': { query: [], body: json(names(updateUserBody)) },
  'DELETE /api/users/{id}': { query: [], body: null },
  'GET /api/users/profile': { query: [], body: null },
  'PUT /api/users/profile': { query: [], body: json(names(updateProfileBody)) },
  'POST /api/users/change-password': { query: [], body: json(names(changePasswordBody)) },
  'GET /api/tokens': { query: names(listTokensQuery), body: null },
  'POST /api/tokens': { query: [], body: json(names(createTokenBody)) },
  'DELETE /api/tokens/{id}': { query: [], body: null },
  'GET /api/usage': { query: names(usageQuery), body: null },
  'GET /api/usage/workspaces': { query: names(usageQuery), body: null },
  'GET /api/settings': { query: [], body: null },
  'PUT /api/settings': { query: [], body: json(names(updateSettingsBody)) },
  'POST /api/documents/upload': { query: [], body: { kind: 'multipart', fields: names(uploadFields), files: ['file'] } },
  'POST /api/documents/upload-url': { query: [], body: json(names(uploadUrlBody)) },
  'POST /api/documents/bulk-upload': { query: [], body: { kind: 'multipart', fields: names(bulkUploadFields), files: ['files', 'files[]'] } },
  'GET /api/documents': { query: names(listDocumentsQuery), body: null },
  'GET /api/documents/{id}': { query: [], body: null },
  'PUT /api/documents/{id}': { query: [], body: json(names(updateDocumentBody)) },
  'DELETE /api/documents/{id}': { query: [], body: null },
  'GET /api/documents/{id}/download': { query: [], body: null },
  'GET /api/documents/{id}/searchable-pdf': { query: [], body: null },
  'GET /api/documents/{id}/thumbnail': { query: names(thumbnailQuery), body: null },
  'GET /api/labels': { query: [], body: null },
  'POST /api/labels': { query: [], body: json(names(createLabelBody)) },
  'PUT /api/labels/{id}': { query: [], body: json(names(updateLabelBody)) },
  'DELETE /api/labels/{id}': { query: [], body: null },
  'POST /api/labels/{id}/assign': { query: [], body: json(names(assignLabelBody)) },
  'GET /api/rules': { query: [], body: null },
  'POST /api/rules': { query: [], body: json(names(createRuleBody)) },
  'PUT /api/rules/{id}': { query: [], body: json(names(updateRuleBody)) },
  'DELETE /api/rules/{id}': { query: [], body: null },
  'POST /api/rules/{id}/apply': { query: [], body: null },
  'POST /api/documents/{id}/retry-ocr': { query: [], body: json(names(retryOcrBody)) },
  'GET /api/ocr/queue/status': { query: [], body: null },
  'GET /api/ocr/queue': { query: names(queueListQuery), body: null },
  'PUT /api/ocr/queue/{id}/priority': { query: [], body: json(names(priorityBody)) },
  'DELETE /api/ocr/queue/{id}': { query: [], body: null },
  'GET /api/metrics/ocr': { query: [], body: null },
  'GET /api/metrics/system': { query: [], body: null },
  'GET /api/search': { query: names(searchQuery), body: null },
  'POST /api/search/advanced': { query: [], body: json(names(advancedSearchBody)) },
  'GET /api/sources': { query: [], body: null },
  'POST /api/sources': { query: [], body: json(names(createSourceBody)) },
  'PUT /api/sources/{id}': { query: [], body: json(names(updateSourceBody)) },
  'DELETE /api/sources/{id}': { query: [], body: null },
  'POST /api/sources/{id}/sync': { query: [], body: null },
  'GET /api/sources/{id}/sync-status': { query: [], body: null },
  'GET /api/notifications': { query: names(listNotificationsQuery), body: null },
  'PUT /api/notifications/{id}/read': { query: [], body: null },
  'PUT /api/notifications/read-all': { query: [], body: null },
  'GET /api/webhooks': { query: [], body: null },
  'POST /api/webhooks': { query: [], body: json(names(createWebhookBody)) },
  'GET /api/webhooks/{id}': { query: [], body: null },
  'PUT /api/webhooks/{id}': { query: [], body: json(names(updateWebhookBody)) },
  'DELETE /api/webhooks/{id}': { query: [], body: null },
  'POST /api/webhooks/{id}/rotate-secret': { query: [], body: null },
  'POST /api/webhooks/{id}/test': { query: [], body: null },
  'GET /api/webhooks/{id}/deliveries': { query: names(pageQuery), body: null },
  'GET /api/workspace': { query: [], body: null },
  'PUT /api/workspace': { query: [], body: json(names(renameWorkspaceBody)) },
  'DELETE /api/workspace': { query: [], body: json(names(deleteWorkspaceBody)) },
  'GET /api/workspaces': { query: names(pageQuery), body: null },
  'PUT /api/workspaces/{id}': { query: [], body: json(names(changeWorkspaceBody)) },
  'DELETE /api/workspaces/{id}': { query: [], body: null },
  'POST /api/workspace/exports': { query: [], body: null },
  'GET /api/workspace/exports/{id}': { query: [], body: null },
  'POST /api/workspace/imports': { query: [], body: json(names(createImportBody)) },
  'POST /api/workspace/imports/{id}/start': { query: [], body: null },
  'GET /api/workspace/imports/{id}': { query: [], body: null },
  'GET /api/audit': { query: names(auditQuery), body: null },
  'GET /api/health': { query: [], body: null },
};

/** The model of every route of the manifest: a v2 route takes what its v1 twin takes (v2 serves the v1 surface). */
export const ROUTE_MODELS: Record<string, RouteModel> = Object.fromEntries(
  Object.entries(V1_ROUTE_MODELS).flatMap(([key, model]) => [
    [key, model],
    [v2RouteKey(key), model],
  ]),
);

/**
 * Routes anyone may call, by v1 key (as {@link FuzzRequest.routeKey} names them); every other one must answer a
 * caller without a valid token 401 (or 404 off-route).
 */
export const PUBLIC_ROUTES = ['POST /api/auth/register', 'POST /api/auth/login', 'POST /api/auth/refresh', 'GET /api/auth/oidc/login', 'GET /api/auth/oidc/callback', 'GET /api/health'];

export const MANIFEST_ROUTE_KEYS = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => [...HTTP_ROUTES[group]] as string[]);

/** Ids of stored things, so that some requests reach past the id check into the use cases. */
export interface FuzzIds {
  document: string;
  label: string;
  webhook: string;
  rule: string;
}

/**
 * What generated requests carry for those ids; `send` puts in the ids of the moment, so that a case that
 * deletes the document or label (the test then stores new ones) does not leave every later case on a 404.
 */
export const ID_PLACEHOLDERS: FuzzIds = {
  document: 'aaaaaaaa-0000-4000-8000-00000000d0c0',
  label: 'bbbbbbbb-0000-4000-8000-0000000001ab',
  webhook: 'cccccccc-0000-4000-8000-0000000000eb',
  rule: 'dddddddd-0000-4000-8000-0000000000ee',
};

const withIds = (text: string, ids: FuzzIds) =>
  text.replaceAll(ID_PLACEHOLDERS.document, ids.document).replaceAll(ID_PLACEHOLDERS.label, ids.label).replaceAll(ID_PLACEHOLDERS.webhook, ids.webhook).replaceAll(ID_PLACEHOLDERS.rule, ids.rule);

function bodyWithIds(body: FuzzBody, ids: FuzzIds): FuzzBody {
  if (typeof body === 'string') return withIds(body, ids);
  if (Buffer.isBuffer(body)) return Buffer.from(withIds(body.toString('latin1'), ids), 'latin1');
  if (!(body instanceof FormData)) return body;
  const form = new FormData();
  for (const [name, value] of body) {
    if (typeof value === 'string') form.append(name, withIds(value, ids));
    else form.append(name, value, value.name);
  }
  return form;
}

/** Text without unpaired surrogates, which encodeURIComponent and FormData cannot take (sent raw instead). */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD');
const encode = (text: string) => encodeURIComponent(wellFormed(text));
const SOME_UUID = '00000000-0000-4000-8000-000000000000';

/**
 * Values a field of this name accepts, the first always (the others: limits, aliases, search syntax), so that
 * requests also get past validation into the use cases. Query parameters take them as text, JSON bodies as
 * they are.
 */
const plausible = (ids: FuzzIds): Record<string, unknown[]> => ({
  page: [1, 2, 50, 51, 0, 1e15],
  per_page: [1, 20, 100, 101],
  sort: ['created_at', 'title', 'size', 'filename', 'updated_at', [{ field: 'date', order: 'asc' }], [{ field: 'relevance' }]],
  order: ['asc', 'desc'],
  status: ['completed', 'pending', 'failed', 'queued', ['completed', 'failed']],
  source_id: [SOME_UUID],
  label_ids: [ids.label, `${ids.label},${SOME_UUID}`],
  date_from: ['2024-01-01', '2024-02-30T00:00:00Z', '9999-12-31'],
  date_to: ['2030-01-01', '2024-01-01T10:00:00+02:00'],
  width: [16, 200, 1024, 1025],
  height: [16, 300],
  q: ['invoice', 'Invoice seed', '"unclosed', 'a OR -b', '(a', 'title:invoice', 'inv*', '-only', 'a || b && c', '4711', 'x '.repeat(40)],
  filters: ['{}', `{"labels":["${ids.label}"]}`, '{"min_confidence":2}', '{"status":"completed","mime_types":["image/png"]}', { labels: [ids.label] }, { date_range: { from: '2024-01-01' } }],
  highlight: [true, 'false'],
  fuzzy: [true, 'true'],
  unread_only: ['true', '0'],
  // Not the callers' names: failed logins slow a username down (429), and the test logs its callers in again.
  username: ['fuzzer_1', 'ab', 'FUZZER_1'],
  email: ['fuzz@example.com', 'fuzz-viewer@example.com', 'not-an-email'],
  password: ['long-enough-password', 'short'],
  current_password: ['fuzz-admin-password', 'fuzz-viewer-password', 'wrong-password'],
  new_password: ['another-long-password'],
  display_name: ['Fuzz', null, ''],
  theme: ['dark', 'light', 'blue'],
  language: ['en', 'de-CH', 'eng', 'eng+deu', 'xx'],
  notifications_enabled: [false, true],
  ocr_default_language: ['deu', 'english'],
  items_per_page: [10, 100, 101, 2.5],
  title: ['Invoice 2024', ' ', 'x'.repeat(501)],
  labels: [[ids.label], [ids.label, SOME_UUID], ids.label],
  metadata: [{ k: 'v', n: 1, b: true, z: null }, { nested: { a: 1 } }, Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))],
  filename: ['big.pdf', '../../etc/passwd', 'x'.repeat(1025)],
  size: [1, 1024, 0, 524_288_001],
  ocr_enabled: [false, 'false'],
  priority: ['high', 'normal', 'urgent'],
  name: ['Fuzz label', 'fuzz', ''],
  color: ['#336699', '#ABCDEF', 'red'],
  description: ['About', null],
  document_ids: [[ids.document], [ids.document, SOME_UUID], []],
  // Loopback only, and nothing listens on port 9: a source check (or a webhook delivery) the fuzzer gets through is refused at once.
  url: ['http://127.0.0.1:9/dav/', 'ftp://127.0.0.1/', 'http://user:pw@127.0.0.1:9/'],
  type: ['webdav', 'local_folder'],
  sync_interval: [3600, 59, 604_801],
  recursive: [true, 'yes'],
  file_patterns: [['*.pdf', 'scans/**/*.tif'], ['*.[pdf'], [], ['*a*a*a*a*a*a*a*a*a*a*a*a*b'], [`${'*a'.repeat(17)}b`, '{a,{b,{c,{d}}}}']],
  enabled: [false, 1],
  events: [['document.uploaded'], ['document.uploaded', 'ocr.completed', 'document.uploaded'], [], ['ping'], 'document.deleted'],
  active: [true, false, 'yes'],
  // Rules: linear-time regexes only, so a hostile pattern is answered like any other. Patterns no stored document
  // matches: a run over existing documents labels in the background, past the case that started it.
  match: [
    { field: 'content', algorithm: 'any', pattern: 'zqxj fuzzless' },
    { field: 'filename', algorithm: 'regex', pattern: '^(a+)+$', case_sensitive: true },
    { field: 'filename', algorithm: 'regex', pattern: '(unclosed' },
    { field: 'content', algorithm: 'fuzzy', pattern: 'x'.repeat(1001) },
    { field: 'body', algorithm: 'exact', pattern: 'x' },
  ],
  when: [{}, { mime_types: ['image/png'] }, { source_id: null }, { mime_types: ['text/html'] }],
  add_labels: [[ids.label], [SOME_UUID], [], ids.label],
  query: [{ must: [{ field: 'title', value: 'invoice', type: 'match' }] }, { should: [{ field: 'content', value: 'abc', type: 'contains' }] }, { must_not: [{ field: 'title', value: 'x', type: 'exact' }] }],
});

// Values that break parsers: NUL, unpaired surrogates, huge and tiny numbers, reserved names, deep nesting.
const HOSTILE_JSON: unknown[] = [
  'a\u0000b', '\ud800', 'x\udfff', '', ' ', 'x'.repeat(5000), 1e308, -1e308, 1e-321, 2 ** 53 + 2, -0, 0.5, -1, true, null, [], {},
  JSON.parse('{"__proto__":{"polluted":"yes"}}'), { constructor: 'y' }, JSON.parse(`${'['.repeat(40)}"deep"${']'.repeat(40)}`),
];

// URL pieces sent exactly as written: bad escapes, NUL, UTF-8 of a surrogate, dot segments, reserved names.
const HOSTILE_URL_PIECES = ['%zz', '%', '%E2%82', '%00', 'a%00b', '%ED%A0%80', '%C0%AE', '..', '.', 'a%2Fb', '%20', '__proto__', 'constructor',
  '1e400', '-1', '99999999999999999999', 'NaN', '', 'x'.repeat(3000), '%F0%9F%98%80', '%7B%22a%22%3A1%7D', '%0D%0Aset-cookie%3A%20x'];

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A value for a field of this name: plausible mostly, else hostile or random. */
const fieldValue = (name: string, ids: FuzzIds): fc.Arbitrary<unknown> => {
  const table = plausible(ids);
  // hasOwn: `table['constructor']` would be Object's own constructor.
  const good = Object.hasOwn(table, name) ? table[name] : undefined;
  // The first plausible value is a valid one: it is drawn most, so that whole requests are valid often enough.
  return fc.oneof(
    { weight: good ? 8 : 0, arbitrary: fc.constant(good?.[0]) },
    { weight: good ? 4 : 0, arbitrary: fc.constantFrom(...(good ?? [null])) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_JSON) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  );
};

const urlValue = (name: string, ids: FuzzIds): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fieldValue(name, ids).map((value) => encode(asText(value) ?? 'null')) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_URL_PIECES) },
  );

const pathFor = (routeKey: string, ids: FuzzIds): fc.Arbitrary<string> => {
  const template = routeKey.split(' ')[1]!;
  const id = fc.oneof(
    { weight: 6, arbitrary: routeKey.includes('/webhooks/') ? fc.constantFrom(ids.webhook, SOME_UUID) : routeKey.includes('/rules/') ? fc.constantFrom(ids.rule, SOME_UUID) : fc.constantFrom(ids.document, ids.label, SOME_UUID) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_URL_PIECES) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encode) },
  );
  // One path in six is mutated: a segment more or less, a trailing slash, a changed prefix, upper case.
  const mutation = fc.oneof(
    { weight: 15, arbitrary: fc.constant('none') },
    { weight: 3, arbitrary: fc.constantFrom('append', 'drop', 'slash', 'prefix', 'upper') },
  );
  return fc.tuple(id.map((value) => template.replace('{id}', value)), mutation, fc.constantFrom(...HOSTILE_URL_PIECES, 'x')).map(([path, kind, extra]) => {
    if (kind === 'append') return `${path}/${extra}`;
    if (kind === 'drop') return path.replace(/\/[^/]*$/, '') || '/';
    if (kind === 'slash') return `${path}/`;
    if (kind === 'prefix') return path.replace('/api/', `/api/${extra}`);
    if (kind === 'upper') return path.toUpperCase();
    return path;
  });
};

const queryFor = (model: RouteModel, ids: FuzzIds): fc.Arbitrary<string> => {
  const name = fc.oneof(
    { weight: model.query.length ? 8 : 0, arbitrary: fc.constantFrom(...(model.query.length ? model.query : ['page'])) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', '', '%zz', 'q%00', 'page') },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encode) },
  );
  const pairs = fc.array(name.chain((n) => urlValue(n, ids).map((v) => `${n}=${v}`)), { minLength: 1, maxLength: 4 });
  // Routes without parameters mostly get none, so that their bodies are reached.
  return fc.oneof(
    { weight: model.query.length ? 1 : 4, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: pairs.map((list) => `?${list.join('&')}`) },
  );
};

/** A JSON object of known (and some unknown) fields, or a body that is not such an object at all. */
const jsonBodyFor = (fields: string[], ids: FuzzIds): fc.Arbitrary<{ body: FuzzBody; contentType: string | null }> => {
  const entry = (name: string) => fieldValue(name, ids).map((value) => [name, value] as const);
  const known = fc.oneof(fc.constant(fields), fc.shuffledSubarray(fields)).chain((chosen) => fc.tuple(...chosen.map(entry)));
  const unknown = fc.oneof(
    { weight: 5, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', '\u0000', '\ud800').chain(entry).map((pair) => [pair]) },
  );
  const object = fc.tuple(known, unknown).map(([entries, extra]) => {
    const value: Record<string, unknown> = {};
    // defineProperty: `value.__proto__ = x` would set the prototype instead of sending a `__proto__` key.
    for (const [key, item] of [...entries, ...extra]) Object.defineProperty(value, key, { value: item, enumerable: true, configurable: true, writable: true });
    return JSON.stringify(value);
  });
  const text = fc.oneof(
    { weight: 12, arbitrary: object },
    { weight: 1, arbitrary: fc.tuple(object, fc.nat()).map(([body, cut]) => body.slice(0, cut % (body.length + 1))) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":1}{', '\u0000', '{"title":"a","title":"b"}', '{"title":"\\ud800"}') },
  );
  const bytes = fc.tuple(text, fc.uint8Array({ maxLength: 8 })).map(([body, junk]) => Buffer.concat([Buffer.from(body), Buffer.from(junk), Buffer.from([0xff, 0xfe])]));
  return fc.record({
    body: fc.oneof({ weight: 8, arbitrary: text }, { weight: 1, arbitrary: bytes }),
    contentType: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/vnd.api+json') },
      { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', null) },
    ),
  });
};

const multipartBodyFor = (fields: string[], files: string[], ids: FuzzIds): fc.Arbitrary<{ body: FuzzBody; contentType: string | null }> => {
  // Form fields carry lists comma-separated and only OCR languages; these valid values come first.
  const formValues: Record<string, string> = { labels: ids.label, default_labels: ids.label, language: 'eng' };
  const text = (name: string) =>
    fc.oneof(
      { weight: Object.hasOwn(formValues, name) ? 6 : 0, arbitrary: fc.constant(formValues[name] ?? '') },
      { weight: 6, arbitrary: fieldValue(name, ids).map((value) => asText(value) ?? '') },
      { weight: 1, arbitrary: fc.constant('x'.repeat(70_000)) },
    );
  const fileBytes = fc.oneof(
    fc.constant(new Uint8Array(pngImage(8, 8))),
    fc.uint8Array({ maxLength: 64 }),
    fc.constant(new Uint8Array(0)),
  );
  const form = fc
    .record({
      texts: fc.array(fc.oneof(fc.constantFrom(...fields), fc.constantFrom('__proto__', 'constructor', 'x')).chain((name) => text(name).map((value) => [name, value] as const)), { maxLength: 4 }),
      parts: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...files), fc.constant('other')), fileBytes, fc.string({ unit: 'binary', maxLength: 20 })), {
        maxLength: 3,
      }),
    })
    .map(({ texts, parts }) => {
      const data = new FormData();
      for (const [name, value] of texts) data.append(name, wellFormed(value));
      for (const [name, bytes, filename] of parts) data.append(name, new Blob([bytes]), wellFormed(filename) || 'f');
      return { body: data as FuzzBody, contentType: null };
    });
  // Hand-written bodies: no boundary, a boundary that never comes, a part cut off, headers without a name.
  const raw = fc
    .constantFrom(
      ['multipart/form-data', '--x\r\n\r\n'],
      ['multipart/form-data; boundary=x', 'no boundary here'],
      ['multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc'],
      ['multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data\r\n\r\nabc\r\n--x--\r\n'],
      ['multipart/form-data; boundary=x', '--x\r\ncontent-disposition: form-data; name="title"\r\n\r\nt\r\n--x--\r\n'],
      ['multipart/form-data; boundary="', ''],
      ['text/plain', 'hello'],
    )
    .map(([contentType, body]) => ({ body: body as FuzzBody, contentType }));
  return fc.oneof({ weight: 4, arbitrary: form }, { weight: 1, arbitrary: raw });
};

export interface FuzzRequest {
  /** The v1 route that serves the request: a request to `/api/v2/...` names its v1 twin (the path keeps `/v2/`). */
  routeKey: string;
  method: string;
  path: string;
  caller: 'admin' | 'viewer' | 'anonymous' | 'forged';
  body: FuzzBody | null;
  contentType: string | null;
}

/** One request against one route of the manifest: its method mostly, its path, query and body, mutated. */
export function fuzzRequest(ids: FuzzIds): fc.Arbitrary<FuzzRequest> {
  // Routes with more to parse are drawn more often: a bare GET has little to get wrong.
  const weight = (key: string) => 1 + (ROUTE_MODELS[key]!.body ? 3 : 0) + (ROUTE_MODELS[key]!.query.length ? 1 : 0) + (key.includes('{id}') ? 1 : 0);
  const routeKeys = fc.oneof(...MANIFEST_ROUTE_KEYS.map((key) => ({ weight: weight(key), arbitrary: fc.constant(key) })));
  return routeKeys.chain((routeKey) => {
    const model = ROUTE_MODELS[routeKey]!;
    const routeMethod = routeKey.split(' ')[0]!;
    const body =
      model.body?.kind === 'json'
        ? jsonBodyFor(model.body.fields, ids)
        : model.body?.kind === 'multipart'
          ? multipartBodyFor(model.body.fields, model.body.files, ids)
          : fc.oneof(fc.constant({ body: null, contentType: null }), jsonBodyFor(['x'], ids));
    return fc.record({
      routeKey: fc.constant(v1RouteKey(routeKey)),
      method: fc.oneof({ weight: 9, arbitrary: fc.constant(routeMethod) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
      path: fc.tuple(pathFor(routeKey, ids), queryFor(model, ids)).map(([path, query]) => path + query),
      caller: fc.constantFrom('admin', 'admin', 'admin', 'viewer', 'anonymous', 'forged'),
      body: fc.constant(null),
      contentType: fc.constant(null),
    }).chain((request) => body.map((b) => ({ ...request, ...(request.method === 'GET' ? {} : b) })));
  });
}

export interface FuzzResponse {
  status: number;
  requestId: string | null;
  text: string;
}

/**
 * Sends a fuzz request on a connection of its own, with the path exactly as generated (fetch would resolve
 * `..` and re-encode), so that no keep-alive socket the server is closing can fail it.
 */
export async function send(baseUrl: string, request: FuzzRequest, tokens: Record<string, string>, ids: FuzzIds): Promise<FuzzResponse> {
  const headers: Record<string, string> = {};
  const token = tokens[request.caller];
  if (token) headers['authorization'] = `Bearer ${token}`;
  let body: Buffer | null = null;
  if (request.body !== null) {
    // A Response serialises any body as fetch would, FormData with its boundary.
    const serialised = new Response(bodyWithIds(request.body, ids));
    body = Buffer.from(await serialised.arrayBuffer());
    headers['content-type'] = request.contentType ?? serialised.headers.get('content-type') ?? '';
    if (!headers['content-type']) delete headers['content-type'];
    headers['content-length'] = String(body.length);
  }
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const path = withIds(request.path, ids);
    const outgoing = httpRequest({ hostname, port, method: request.method, path, headers, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode ?? 0,
          requestId: (incoming.headers['x-request-id'] as string | undefined) ?? null,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body ?? undefined);
  });
}

const P_CODES = Object.keys(ERROR_STATUS);

/** An error answer is the P error body, with the request id of its header; nothing is ever a 5xx. */
export function expectPAnswer(request: FuzzRequest, response: FuzzResponse): void {
  const where = `${request.method} ${request.path} as ${request.caller}`;
  expect(response.status, `${where} answered ${response.status}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status < 400 || request.method === 'HEAD') return;
  const body = JSON.parse(response.text) as { error: Record<string, unknown> };
  expect(Object.keys(body), where).toEqual(['error']);
  expect(body.error, where).toEqual({
    code: expect.any(String),
    message: expect.any(String),
    details: expect.any(Object),
    timestamp: expect.any(String),
    request_id: response.requestId,
  });
  expect(P_CODES, where).toContain(body.error['code']);
}

/** Writes raw bytes to the server, half-closes, and reads what comes back until it closes (or 5 s pass). */
export function rawExchange(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.end(bytes);
  });
}
