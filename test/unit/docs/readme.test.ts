import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The README is what a newcomer reads first: short, opening with the two commands, naming the local runtime
 * contract, and leading to every document under docs/.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README.md', () => {
  it('stays under 250 lines', () => {
    const lines = readme.split('\n').length;

    expect(lines).toBeLessThan(250);
  });

  it('opens with the start and test commands in its first code block', () => {
    const firstBlock = /```[^\n]*\n([\s\S]*?)```/u.exec(readme)?.[1] ?? '';

    expect(firstBlock).toMatch(/^npm start\b/mu);
    expect(firstBlock).toMatch(/^npm test\b/mu);
  });

  it('names the local runtime contract', () => {
    const missing = ['PORT', 'DATA_DIR', 'ADMIN_USERNAME', 'ADMIN_PASSWORD', '/api/health'].filter((name) => !readme.includes(name));

    expect(missing).toEqual([]);
  });

  it('links every document of docs/', () => {
    const topics = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));

    const unlinked = topics.filter((name) => !readme.includes(`](docs/${name}`));

    expect(unlinked).toEqual([]);
  });

  it('keeps no ledger of issue numbers', () => {
    const issueMentions = readme.match(/\bissues? \d+/giu) ?? [];

    expect(issueMentions).toEqual([]);
  });
});
