/**
 * Our Swagger UI page, its initializer script and the headers it is served with: one source for the local
 * runtime (shared/local/api-docs.ts) and the cloud edge (lib/constructs/api-docs-site.ts), so both serve the
 * same bytes under the same policy.
 */

/** Where the UI reads the contract from: the same origin, so that "Try it out" calls the API it documents. */
export const OPENAPI_DOCUMENT_PATH = '/api-docs/openapi.json';

/**
 * The UI's Content-Security-Policy. No inline script (the initializer is a file of ours) and no inline style:
 * swagger-ui sets element styles through the CSSOM (React's `style` prop), which `style-src` does not govern, and
 * its stylesheet's icons are `data:` images. "Try it out" fetches the API on this origin only (`connect-src`).
 */
export const SWAGGER_UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every file of the contract and its UI carries, in both runtimes. */
export const API_DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': SWAGGER_UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** The page at `/swagger-ui`: swagger-ui-dist's stylesheet and bundle, then our initializer, all from `/swagger-ui/`. */
export const SWAGGER_UI_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>docservice API</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/swagger-ui/swagger-ui-bundle.js"></script>
    <script src="/swagger-ui/initializer.js"></script>
  </body>
</html>
`;

/**
 * The page's script, at `/swagger-ui/initializer.js`. The token a user enters under "Authorize" is kept across
 * reloads (`persistAuthorization`, the browser's localStorage); no validator badge, which would call a third
 * party (and the CSP would refuse it).
 */
export const SWAGGER_UI_INITIALIZER = `// Starts Swagger UI on the service's OpenAPI document (shared/api-docs/swagger-ui-page.ts).
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_DOCUMENT_PATH)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Tags start closed: with every operation open at once Swagger UI stops rendering after the first tag.
    docExpansion: 'none',
    persistAuthorization: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;
