/** A source map as esbuild writes it (version 3), with the fields pruning touches. */
export interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
  sourcesContent?: (string | null)[];
  [field: string]: unknown;
}

/** A decoded segment, absolute: [column] (code from no source) or [column, source, line, sourceColumn, name?]. */
type Segment = [number] | [number, number, number, number] | [number, number, number, number, number];

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((char, value) => [char, value]));

/**
 * The map without what it says about the sources `keep` refuses: each run of their code becomes code from no
 * source, so a stack frame in it shows the bundle's position rather than a wrong file's. Node parses a map at
 * every cold start with `--enable-source-maps`; without the dependencies' 540 sources a function's map is about
 * a fifth of the size. Sources and names nothing points at any more go too.
 */
export function pruneSourceMap(map: SourceMapV3, keep: (source: string) => boolean): SourceMapV3 {
  const lines = decodeMappings(map.mappings);
  const sourceIndex = new Map<number, number>();
  const nameIndex = new Map<number, number>();
  const sources: string[] = [];
  const sourcesContent: (string | null)[] = [];
  const names: string[] = [];
  const pruned = lines.map((segments) => {
    const kept: Segment[] = [];
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

/** The `mappings` field as absolute segments per generated line. */
export function decodeMappings(mappings: string): Segment[][] {
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  return mappings.split(';').map((text) => {
    let generatedColumn = 0;
    if (text === '') return [];
    return text.split(',').map((field): Segment => {
      const values = decodeVlq(field);
      generatedColumn += values[0]!;
      if (values.length === 1) return [generatedColumn];
      source += values[1]!;
      line += values[2]!;
      column += values[3]!;
      if (values.length === 4) return [generatedColumn, source, line, column];
      name += values[4]!;
      return [generatedColumn, source, line, column, name];
    });
  });
}

/** Absolute segments per generated line as a `mappings` field. */
export function encodeMappings(lines: readonly (readonly Segment[])[]): string {
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  return lines
    .map((segments) => {
      let generatedColumn = 0;
      return segments
        .map((segment) => {
          let text = encodeVlq(segment[0] - generatedColumn);
          generatedColumn = segment[0];
          if (segment.length === 1) return text;
          text += encodeVlq(segment[1] - source) + encodeVlq(segment[2] - line) + encodeVlq(segment[3] - column);
          [source, line, column] = [segment[1], segment[2], segment[3]];
          if (segment.length === 5) {
            text += encodeVlq(segment[4] - name);
            name = segment[4];
          }
          return text;
        })
        .join(',');
    })
    .join(';');
}

function decodeVlq(field: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of field) {
    const digit = BASE64_VALUE.get(char);
    if (digit === undefined) throw new Error(`not a source map VLQ digit: ${JSON.stringify(char)}`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw new Error(`a source map VLQ value ends early: ${JSON.stringify(field)}`);
  return values;
}

function encodeVlq(value: number): string {
  let rest = value < 0 ? -value * 2 + 1 : value * 2;
  let text = '';
  do {
    const digit = rest % 32;
    rest = Math.floor(rest / 32);
    text += BASE64[rest > 0 ? digit | 32 : digit];
  } while (rest > 0);
  return text;
}
