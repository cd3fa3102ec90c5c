import { buildAsyncApiDocument } from './asyncapi/build-asyncapi';
import { buildOpenApiDocument } from './openapi/build-openapi';

/** A generated contract file: its path from the repository root, where it is, and its text. */
export interface ContractFile {
  path: string;
  url: URL;
  text: string;
}

const file = (path: string, document: unknown): ContractFile => ({
  path,
  url: new URL(`../${path}`, import.meta.url),
  text: `${JSON.stringify(document, null, 2)}\n`,
});

/** The contract's files as a fresh generation writes them. */
export const contractFiles = (): ContractFile[] => [
  file('docs/api/openapi.json', buildOpenApiDocument()),
  file('docs/api/asyncapi.json', buildAsyncApiDocument()),
];
