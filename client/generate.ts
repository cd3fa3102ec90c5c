/** Regenerates the typed client's types (client/src/openapi.d.ts) from docs/api/openapi.json: `npm run client`. */
import { writeFileSync } from 'node:fs';
import { parseCommandLine, runCommand } from '../bin/support/cli';
import { generatedTypes, TYPES_URL } from './generate-types';

const spec = {
  name: 'client',
  usage: 'npm run client',
  summary: ['Regenerates client/src/openapi.d.ts from docs/api/openapi.json (run npm run contract first).'],
  options: {},
};

parseCommandLine(spec);
await runCommand(spec.name, async () => {
  writeFileSync(TYPES_URL, await generatedTypes());
  console.log('wrote client/src/openapi.d.ts');
});
