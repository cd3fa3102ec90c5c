/**
 * Writes the API contract: docs/api/openapi.json (the HTTP API, OpenAPI 3.1) and docs/api/asyncapi.json (the
 * WebSocket channel, AsyncAPI 3.0), from the route contracts, the operation docs and the event definitions.
 * Build-time only: `npm run contract`. CI checks that the committed files equal a fresh generation
 * (test/unit/api-contract/contract-files.test.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { contractFiles } from './contract-files';
import { parseCommandLine, runCommand } from '../bin/support/cli';

const spec = {
  name: 'contract',
  usage: 'npm run contract',
  summary: ['Regenerates docs/api/openapi.json and docs/api/asyncapi.json from the code (then run npm run client).'],
  options: {},
};

parseCommandLine(spec);
await runCommand(spec.name, async () => {
  for (const file of contractFiles()) {
    mkdirSync(new URL('.', file.url), { recursive: true });
    writeFileSync(file.url, file.text);
    console.log(`wrote ${file.path}`);
  }
});
