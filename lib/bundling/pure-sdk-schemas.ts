import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** The generated schema modules of the SDK's clients (`@aws-sdk/client-s3/dist-es/schemas/schemas_0.js`, ...). */
export const SDK_SCHEMA_MODULE = /@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/;

/** `const _hH = "httpHeader";`: the string constants a schema module names its traits and members with. */
const STRING_CONSTANT = /^const (_\w+) = ("(?:[^"\\\n]|\\.)*");$/gm;

/** `{ [_hH]: ...}`: a trait keyed by one of those constants. */
const COMPUTED_KEY = /\[(_\w+)\]:/g;

/**
 * A schema module with each computed key that names one of its string constants written as that string:
 * `{ [_hH]: _xaebo }` becomes `{ "httpHeader": _xaebo }`. The module means the same; what changes is that esbuild,
 * which cannot tell that a computed key has no side effect (it might call a `toString`), now sees every schema as
 * a pure value and drops those of the operations a function never sends, most of a client's schemas in a
 * function that sends a few of its operations. A computed key that names no string constant is left as it is.
 */
export function inlineSchemaKeys(source: string): string {
  const constants = new Map<string, string>();
  for (const [, name, literal] of source.matchAll(STRING_CONSTANT)) constants.set(name!, literal!);
  return source.replace(COMPUTED_KEY, (key, name: string) => {
    const literal = constants.get(name);
    return literal === undefined ? key : `${literal}:`;
  });
}

/** The esbuild plugin that loads the SDK's schema modules through {@link inlineSchemaKeys}. */
export const pureSdkSchemas: Plugin = {
  name: 'pure-sdk-schemas',
  setup(build) {
    build.onLoad({ filter: SDK_SCHEMA_MODULE }, async ({ path }) => ({
      contents: inlineSchemaKeys(await readFile(path, 'utf8')),
      loader: 'js',
    }));
  },
};
