import { describe, expect, it } from 'vitest';
import { decodeMappings, encodeMappings, pruneSourceMap, type SourceMapV3 } from '../../../../lib/bundling/source-map-pruning';

const mapOf = (sources: string[], names: string[], lines: Parameters<typeof encodeMappings>[0]): SourceMapV3 => ({
  version: 3,
  sources,
  names,
  mappings: encodeMappings(lines),
});

describe('decodeMappings and encodeMappings', () => {
  it('write decoded mappings back as the text they were decoded from', () => {
    const mappings = 'AAAA,SAASA,IAAI;;ACAA,gBAAgB,CAACC;AAAA';

    const decoded = decodeMappings(mappings);

    expect(encodeMappings(decoded)).toBe(mappings);
  });

  it('turn relative fields into absolute positions that carry across lines', () => {
    const decoded = decodeMappings('AAAA,IAAI;ACCA,EAAEA');

    expect(decoded).toEqual([
      [
        [0, 0, 0, 0],
        [4, 0, 0, 4],
      ],
      [
        [0, 1, 1, 4],
        [2, 1, 1, 6, 0],
      ],
    ]);
  });

  it('round-trip negative steps and values of many digits', () => {
    const lines = [
      [
        [100_000, 3, 70_000, 500],
        [100_010, 0, 2, 1, 9],
      ],
      [[5]],
      [[0, 3, 1, 0, 0]],
    ] as Parameters<typeof encodeMappings>[0];

    expect(decodeMappings(encodeMappings(lines))).toEqual(lines);
  });

  it('refuses a field with a character that is not base64', () => {
    expect(() => decodeMappings('AA!A')).toThrow(/VLQ digit/);
  });

  it('refuses a field whose last value is cut short', () => {
    expect(() => decodeMappings('AAAg;AAAA')).toThrow(/ends early/);
  });
});

describe('pruneSourceMap', () => {
  const isOwn = (source: string) => !source.includes('node_modules/');

  it('keeps the segments of the sources it is told to keep, pointing at the same lines and names', () => {
    const map = mapOf(['node_modules/zod/index.js', 'shared/a.ts'], ['dep', 'own'], [[[0, 0, 10, 0, 0], [20, 1, 3, 2, 1]]]);

    const pruned = pruneSourceMap(map, isOwn);

    expect(pruned.sources).toEqual(['shared/a.ts']);
    expect(pruned.names).toEqual(['own']);
    expect(decodeMappings(pruned.mappings)).toEqual([[[0], [20, 0, 3, 2, 0]]]);
  });

  it('marks a run of a dropped source as code from no source once, where the run starts', () => {
    const map = mapOf(
      ['shared/a.ts', 'node_modules/dep/x.js'],
      [],
      [
        [
          [0, 0, 0, 0],
          [10, 1, 0, 0],
          [20, 1, 1, 0],
          [30, 1, 2, 0],
          [40, 0, 1, 0],
        ],
      ],
    );

    const pruned = pruneSourceMap(map, isOwn);

    expect(decodeMappings(pruned.mappings)).toEqual([[[0, 0, 0, 0], [10], [40, 0, 1, 0]]]);
  });

  it('keeps the other fields of the map and the lines of the generated file', () => {
    const map = { ...mapOf(['shared/a.ts'], [], [[[0, 0, 0, 0]], [], [[4, 0, 2, 0]]]), file: 'index.mjs' };

    const pruned = pruneSourceMap(map, isOwn);

    expect(pruned.file).toBe('index.mjs');
    expect(pruned.mappings.split(';')).toHaveLength(3);
  });
});
