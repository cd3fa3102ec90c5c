// CloudFront Functions (cloudfront-js-2.0), viewer request, in front of the HTTP API. lib/constructs/api-edge.ts
// fills in the settings below at synth time. Two jobs, both before the request reaches API Gateway (and `/` sent
// to the web console's page):
// - refuse a body the functions could not be invoked with (the HTTP API base64-encodes it into Lambda's 6 MB
//   event), with the P 413 body instead of the gateway's bare error;
// - tell the functions the client's address (the gateway sees only CloudFront's), replacing any a client sent.
var MAX_BODY_BYTES = __MAX_BODY_BYTES__;
var PRESIGNED_UPLOAD_ROUTE = __PRESIGNED_UPLOAD_ROUTE__;
var CORS_ORIGINS = __CORS_ORIGINS__;
var VIEWER_ADDRESS_HEADER = __VIEWER_ADDRESS_HEADER__;

function headerValue(request, name) {
  var entry = request.headers[name];
  return entry ? entry.value : undefined;
}

// The CORS headers the functions would have sent, so that a browser can read the refusal.
function corsHeaders(origin) {
  var exposed = { value: 'x-request-id' };
  if (CORS_ORIGINS === '*') return { 'access-control-allow-origin': { value: '*' }, 'access-control-expose-headers': exposed };
  if (origin && CORS_ORIGINS.indexOf(origin) !== -1) {
    return { 'access-control-allow-origin': { value: origin }, 'access-control-expose-headers': exposed, vary: { value: 'origin' } };
  }
  return {};
}

function tooLarge(event, declared) {
  var request = event.request;
  var multipart = /^multipart\/form-data/i.test(headerValue(request, 'content-type') || '');
  var details = { limit_bytes: MAX_BODY_BYTES, received_bytes: declared };
  var message = 'The request body exceeds the ' + MAX_BODY_BYTES + '-byte limit';
  if (multipart) {
    details.use = PRESIGNED_UPLOAD_ROUTE;
    message = 'This upload is too large for a multipart request: use ' + PRESIGNED_UPLOAD_ROUTE + ' to upload it directly to storage';
  }
  var requestId = event.context.requestId;
  var headers = corsHeaders(headerValue(request, 'origin'));
  headers['content-type'] = { value: 'application/json' };
  headers['x-request-id'] = { value: requestId };
  headers['cache-control'] = { value: 'no-store' };
  var body = {
    error: { code: 'PAYLOAD_TOO_LARGE', message: message, details: details, timestamp: new Date().toISOString(), request_id: requestId },
  };
  return { statusCode: 413, statusDescription: 'Payload Too Large', headers: headers, body: { encoding: 'text', data: JSON.stringify(body) } };
}

// The web console's page (lib/constructs/console-site.ts), which the distribution's default root object names:
// should `/` still reach this behaviour, it is sent there rather than to the API's 404.
var CONSOLE_PAGE = '/index.html';

function handler(event) {
  var request = event.request;
  if (request.uri === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
    return { statusCode: 302, statusDescription: 'Found', headers: { location: { value: CONSOLE_PAGE }, 'cache-control': { value: 'no-cache' } } };
  }
  var declared = Number(headerValue(request, 'content-length') || 0);
  if (declared > MAX_BODY_BYTES) return tooLarge(event, declared);
  request.headers[VIEWER_ADDRESS_HEADER] = { value: event.viewer.ip };
  return request;
}
