// CloudFront Functions (cloudfront-js-2.0), viewer request, on the edge's behaviours for the API contract and its
// Swagger UI. lib/constructs/api-docs-site.ts fills in the two settings below from shared/api-docs/files.ts, the
// allow-list the local runtime serves too. The docs bucket holds exactly those files under their paths: a request
// for one of them, or for one of their aliases, goes to the bucket by its canonical path; anything else is
// answered here with the P 404 (the bucket would answer a bare 403), as the local runtime's fallback does; so
// is any method but GET and HEAD.
var FILES = __API_DOCS_FILES__;
var ALIASES = __API_DOCS_ALIASES__;

function notFound(event) {
  var request = event.request;
  var requestId = event.context.requestId;
  var body = {
    error: {
      code: 'NOT_FOUND',
      message: 'No endpoint ' + request.method + ' ' + request.uri,
      details: { method: request.method, path: request.uri },
      timestamp: new Date().toISOString(),
      request_id: requestId,
    },
  };
  var headers = {
    'content-type': { value: 'application/json' },
    'x-request-id': { value: requestId },
    'cache-control': { value: 'no-store' },
  };
  return { statusCode: 404, statusDescription: 'Not Found', headers: headers, body: { encoding: 'text', data: JSON.stringify(body) } };
}

function handler(event) {
  var request = event.request;
  // The behaviours let every method reach this function, so that any but GET and HEAD gets the P 404 too (a
  // behaviour that allowed only these would answer the others with CloudFront's bare 403); none reaches the bucket.
  if (request.method !== 'GET' && request.method !== 'HEAD') return notFound(event);
  // An exact look-up: no path is ever mapped onto a folder, so `..` or an escape cannot leave the list.
  var path = Object.prototype.hasOwnProperty.call(ALIASES, request.uri) ? ALIASES[request.uri] : request.uri;
  if (FILES.indexOf(path) === -1) return notFound(event);
  request.uri = path;
  return request;
}
