import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractFiles } from '../../../api-contract/contract-files';
import { generatedTypes, TYPES_URL } from '../../../client/generate-types';

describe('the committed contract', () => {
  it.each(contractFiles().map((file) => [file.path, file] as const))('%s is what a fresh generation writes (npm run contract)', (_path, file) => {
    expect(readFileSync(file.url, 'utf8')).toBe(file.text);
  });

  it("the typed client's types are what openapi-typescript writes from the committed document (npm run client)", async () => {
    expect(readFileSync(TYPES_URL, 'utf8')).toBe(await generatedTypes());
  });
});
