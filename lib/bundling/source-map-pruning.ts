import { decode, encode, type SourceMapMappings, type SourceMapSegment } from '@jridgewell/sourcemap-codec';

/** A source map as esbuild writes it (version 3), with the fields pruning touches. */
export interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
  [field: string]: unknown;
}

/**
 * The map without what it says about the sources `keep` refuses: each run of their code becomes code from no
 * source, so a stack frame in it shows the bundle's position rather than a wrong file's. Node parses a map at
 * every cold start with `--enable-source-maps`; without the dependencies' sources a function's map is a fraction
 * of the size. Sources and names nothing points at any more go too.
 */
export function pruneSourceMap(map: SourceMapV3, keep: (source: string) => boolean): SourceMapV3 {
  const lines = decodeMappings(map.mappings);
  const sourceIndex = new Map<number, number>();
  const nameIndex = new Map<number, number>();
  const sources: string[] = [];
  const sourcesContent: (string | null)[] = [];
  const names: string[] = [];
  const pruned = lines.map((segments) => {
    const kept: SourceMapSegment[] = [];
    for (const segment of segments) {
      if (segment.length === 1 || !keep(map.sources[segment[1]]!)) {
        // One "no source" segment stands for a whole run of refused code.
        if (kept.at(-1)?.length !== 1) kept.push([segment[0]]);
        continue;
      }
      let source = sourceIndex.get(segment[1]);
      if (source === undefined) {
        sourceIndex.set(segment[1], (source = sources.push(map.sources[segment[1]]!) - 1));
        sourcesContent.push(map.sourcesContent?.[segment[1]] ?? null);
      }
      if (segment.length === 4) {
        kept.push([segment[0], source, segment[2], segment[3]]);
        continue;
      }
      let name = nameIndex.get(segment[4]);
      if (name === undefined) nameIndex.set(segment[4], (name = names.push(map.names[segment[4]]!) - 1));
      kept.push([segment[0], source, segment[2], segment[3], name]);
    }
    return kept;
  });
  return {
    ...map,
    sources,
    names,
    mappings: encodeMappings(pruned),
    ...(map.sourcesContent ? { sourcesContent } : {}),
  };
}

/** Any other character in `mappings` is an error: the codec would read it as some digit and prune a wrong map. */
const NOT_VLQ = /[^A-Za-z0-9+/,;]/;
/** A digit with its continuation bit set ends no value, so none may end a segment. */
const CUT_SHORT = /[g-z0-9+/](?=[,;]|$)/;

/**
 * The `mappings` field as absolute segments per generated line: [column] (code from no source) or
 * [column, source, line, sourceColumn, name?].
 */
export function decodeMappings(mappings: string): SourceMapMappings {
  const stray = NOT_VLQ.exec(mappings);
  if (stray) throw new Error(`not a source map VLQ digit: ${JSON.stringify(stray[0])} at ${stray.index}`);
  const cut = CUT_SHORT.exec(mappings);
  if (cut) throw new Error(`a source map VLQ value ends early at ${cut.index}`);
  return decode(mappings);
}

/** Absolute segments per generated line as a `mappings` field. */
export function encodeMappings(lines: Readonly<SourceMapMappings>): string {
  return encode(lines);
}
