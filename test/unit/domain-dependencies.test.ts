import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The domain's areas (`shared/domain/<area>/`) depend in one direction, and the kernel beside them (clock,
 * errors, pagination, principal, ...) on none of them: read from the import statements of the source itself.
 */
const DOMAIN = fileURLToPath(new URL('../../shared/domain/', import.meta.url));

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });

/** Every module a file imports or re-exports, resolved to a path relative to the domain folder. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)/g)].map((match) => match[1] ?? match[2]!);
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(DOMAIN, path.resolve(path.dirname(file), specifier)));
}

const areas = readdirSync(DOMAIN).filter((name) => statSync(path.join(DOMAIN, name)).isDirectory());

/** area -> the other areas its files import. */
const areaGraph = new Map(
  areas.map((area) => {
    const targets = sourceFiles(path.join(DOMAIN, area))
      .flatMap(importsOf)
      .map((target) => target.split(path.sep))
      .filter((parts) => parts.length > 1 && parts[0] !== '..' && parts[0] !== area)
      .map((parts) => parts[0]!);
    return [area, new Set(targets)];
  }),
);

/** The areas of one cycle of the graph, or null when it has none (depth-first search). */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (area: string): string[] | null => {
    if (state.get(area) === 'done') return null;
    if (state.get(area) === 'open') return [...trail.slice(trail.indexOf(area)), area];
    state.set(area, 'open');
    trail.push(area);
    for (const next of graph.get(area) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(area, 'done');
    return null;
  };
  for (const area of graph.keys()) {
    const cycle = visit(area);
    if (cycle) return cycle;
  }
  return null;
}

describe('domain area dependencies', () => {
  it('no chain of imports between areas leads back to the area it started from', () => {
    const cycle = findCycle(areaGraph);

    expect(cycle?.join(' -> ') ?? 'none').toBe('none');
  });

  it('documents, labels, ocr and search depend in one direction: ocr and labels below documents, search above', () => {
    const dependsOn = (from: string, to: string) => areaGraph.get(from)?.has(to) ?? false;

    expect({
      ocrOnDocuments: dependsOn('ocr', 'documents'),
      labelsOnDocuments: dependsOn('labels', 'documents'),
      documentsOnSearch: dependsOn('documents', 'search'),
      ocrOnSearch: dependsOn('ocr', 'search'),
      labelsOnSearch: dependsOn('labels', 'search'),
    }).toEqual({ ocrOnDocuments: false, labelsOnDocuments: false, documentsOnSearch: false, ocrOnSearch: false, labelsOnSearch: false });
  });

  it('no area imports the derived views (search, events) that follow the change stream', () => {
    const importers = [...areaGraph].filter(([area, targets]) => area !== 'events' && (targets.has('search') || targets.has('events')));

    expect(importers.map(([area]) => area)).toEqual([]);
  });

  it('no module of the domain imports one that imports it back, within an area or across', () => {
    const files = sourceFiles(DOMAIN);
    const fileGraph = new Map(
      files.map((file) => [path.relative(DOMAIN, file).replace(/\.ts$/, ''), new Set(importsOf(file).filter((target) => !target.startsWith('..')))]),
    );

    const cycle = findCycle(fileGraph);

    expect(cycle?.join(' -> ') ?? 'none').toBe('none');
  });

  it('the kernel beside the areas imports no area', () => {
    const kernel = readdirSync(DOMAIN).filter((name) => name.endsWith('.ts')).map((name) => path.join(DOMAIN, name));

    const reachingIntoAreas = kernel.filter((file) => importsOf(file).some((target) => areas.includes(target.split(path.sep)[0]!)));

    expect(reachingIntoAreas.map((file) => path.basename(file))).toEqual([]);
  });

  it('the domain imports no adapter, container, function or infrastructure code', () => {
    const outside = sourceFiles(DOMAIN).filter((file) =>
      importsOf(file).some((target) => /^\.\.\/(adapters|container|local|http|queue|observability)\b|^\.\.\/\.\.\/(functions|lib|bin)\b/.test(target)),
    );

    expect(outside.map((file) => path.relative(DOMAIN, file))).toEqual([]);
  });
});
