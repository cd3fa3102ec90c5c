import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient } from '../../test/support/api-client';
import { hostileFileName, syncWithHostilePatterns } from '../../test/support/attacks/glob-patterns';
import { HELD_CONTENT_LENGTH, holdBodies } from '../../test/support/attacks/held-bodies';
import { createSourceOnHostileListing, startHostileListingServer } from '../../test/support/attacks/webdav-listing';
import { floodMalformedFrames, floodUnauthenticatedPings } from '../../test/support/attacks/websocket-flood';
import { pdfDocument } from '../../test/support/fixtures';
import { watchRuntimeDuring, type RuntimeWatch } from '../../test/support/health-watch';
import { startRcloneDav } from '../../test/support/webdav-servers';

/** One attack of the security review's second round, at the strength the review used, and what it cost. */
export interface AttackResult {
  name: string;
  watch: RuntimeWatch;
  /** What the attacker got: a line for the report. */
  outcome: string;
}

type Runtime = { baseUrl: string; child: { pid?: number | undefined } };

/**
 * Runs the attacks of issue 42 one after another against a running runtime, each while /api/health is polled
 * and the runtime's memory sampled (test/support/health-watch.ts). The e2e suite runs lighter versions of the
 * same attacks (test/e2e/*: sources-hostile-patterns, websocket-flood, request-bodies, sources-hostile-listing).
 */
export async function runHostileAttacks(runtime: Runtime, editor: ApiClient): Promise<AttackResult[]> {
  const results: AttackResult[] = [];
  const watched = async (name: string, attack: () => Promise<string>) => {
    const outcome = attack();
    const watch = await watchRuntimeDuring(runtime, outcome);
    results.push({ name, watch, outcome: await outcome });
  };

  const root = await mkdtemp(join(tmpdir(), 'bench-hostile-patterns-'));
  try {
    await writeFile(join(root, hostileFileName(40)), pdfDocument('Forty a'));
    const dav = await startRcloneDav({ root, username: 'sync', password: 'sync-password' });
    try {
      const glob = await syncWithHostilePatterns(runtime, editor, dav);
      results.push({
        name: 'nested wildcards in file_patterns over a 40-a name',
        watch: glob.watch,
        outcome: `create ${glob.create.status}, sync ${glob.sync?.state ?? 'none'} in ${Math.round(glob.elapsedMs)} ms`,
      });
    } finally {
      await dav.stop();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }

  await watched('1,000 unauthenticated pings a second for 10 s', async () => {
    const flood = await floodUnauthenticatedPings(runtime.baseUrl, { perSecond: 1000, durationMs: 10_000 });
    return `${flood.sent} sent, closed ${flood.closed ? `${flood.closed.code} after ${Math.round(flood.closed.afterMs)} ms` : 'never'}`;
  });
  await watched("200,000 frames of '{' unread", async () => {
    const flood = await floodMalformedFrames(runtime.baseUrl, { frames: 200_000, withinMs: 1000 });
    return `${flood.sent} sent, ${flood.received.length} answers, closed ${flood.closed ? flood.closed.code : 'never'}`;
  });
  await watched('6 anonymous uploads of 90 MiB held one byte short', async () => {
    const held = await holdBodies(runtime.baseUrl, { count: 6, holdMs: 10_000, sendBytes: HELD_CONTENT_LENGTH - 1 });
    return `answers ${held.map((body) => body.status ?? 'none').join(', ')}`;
  });

  const listing = await startHostileListingServer();
  try {
    const hostile = await createSourceOnHostileListing(runtime, editor, listing);
    results.push({
      name: 'a 180,000-entry WebDAV listing',
      watch: hostile.watch,
      outcome: `create ${hostile.create.status} in ${Math.round(hostile.createMs)} ms`,
    });
  } finally {
    await listing.stop();
  }
  return results;
}
