import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { Client } from '@opensearch-project/opensearch';
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws';
import type { IndexEntry, SearchIndex, SearchIndexListing, SearchIndexStore } from '../../../domain/search/ports';
import { buildEntriesOfBody, buildListingBody, parseEntriesOfResponse, parseListingResponse } from './listing';
import {
  ADOPT_SCRIPT,
  createIndexBody,
  routingOf,
  entryIdOf,
  DEFAULT_ALIAS,
  INDEX_VERSION,
  indexNameOf,
  buildSearchBody,
  parseSearchResponse,
  tombstoneSource,
  toSource,
} from './query';

export interface OpenSearchIndexOptions {
  /** The alias every read and write goes through; versioned indexes are named `<alias>-v<N>`. */
  alias?: string;
  /**
   * Whether a write waits for the next refresh before it returns. Off in production (the indexer runs after
   * the change, nobody reads its result); tests turn it on to read their writes.
   */
  refresh?: boolean;
}

/** What the migration found and did. */
export type MigrationOutcome = 'up-to-date' | 'created' | { migratedFrom: string };

const statusOf = (error: unknown): number | undefined => (error as { meta?: { statusCode?: number } }).meta?.statusCode;

/**
 * The cloud SearchIndexStore: an Amazon OpenSearch Service domain, reached with SigV4-signed requests, one
 * index for every workspace. A workspace's view keys its entries by workspace and document id and stamps
 * `workspace_id` on them; every search filters on it (hits, total, facets). Every write and read of a
 * workspace carries its routing (routingOf), so its entries live on one shard and only that shard is asked.
 * Writes use external versioning (`version_type: external_gte`, the document's version), so OpenSearch itself
 * refuses a write older than what it holds (409, taken as "stale, nothing to do"), and an equal version replaces
 * (a label rename changes no document's version). A removal writes a tombstone one version above, which no
 * older write can replace, and which searches filter out.
 * The relevance statistics and the fuzzy expansions (`max_expansions` close terms) are the shard's, every
 * workspace's: they may shift one workspace's scores and fuzzy recall, never bring another's entries.
 */
export class OpenSearchSearchIndex implements SearchIndexStore {
  readonly alias: string;
  private readonly refreshWrites: boolean;

  constructor(
    private readonly client: Client,
    options: OpenSearchIndexOptions = {},
  ) {
    this.alias = options.alias ?? DEFAULT_ALIAS;
    this.refreshWrites = options.refresh ?? false;
  }

  /** A client for a domain endpoint, signing with the Lambda's role (credentials from the default provider chain). */
  static forDomain(endpoint: string, region: string, options: OpenSearchIndexOptions = {}): OpenSearchSearchIndex {
    const node = endpoint.startsWith('http') ? endpoint : `https://${endpoint}`;
    const client = new Client({
      ...AwsSigv4Signer({ region, service: 'es', getCredentials: defaultProvider() }),
      node,
      requestTimeout: 10_000,
      maxRetries: 2,
    });
    return new OpenSearchSearchIndex(client, options);
  }

  /**
   * Brings the index to INDEX_VERSION with no downtime: creates `<alias>-v<N>` with the alias when there is
   * none; when the alias points at an older version, builds the new index, copies the documents with their
   * versions (_reindex, external versioning), swaps the alias in one atomic call, then copies again what
   * changed meanwhile (older copies lose to newer versions). The old index is kept for a rollback. Entries of
   * an index from before workspaces are copied into the bootstrap workspace, and every copy is routed by its
   * workspace (ADOPT_SCRIPT). Functions of the previous version may still write unrouted entries between the
   * swap and their own update: on one primary shard (INDEX_SETTINGS) those are where a routed read looks.
   */
  async migrate(): Promise<MigrationOutcome> {
    const target = indexNameOf(this.alias, INDEX_VERSION);
    const current = await this.aliasTargets();
    if (current.includes(target)) return 'up-to-date';
    if (!current.length) {
      if ((await this.client.indices.exists({ index: target })).body) {
        await this.client.indices.putAlias({ index: target, name: this.alias });
      } else {
        await this.client.indices.create({ index: target, body: createIndexBody(this.alias) as never });
      }
      return 'created';
    }
    const source = current[0]!;
    const { aliases: _aliases, ...body } = createIndexBody(this.alias);
    // A migration cut short (the deploy's timeout) left the target without the alias: it is copied into again.
    if (!(await this.client.indices.exists({ index: target })).body) await this.client.indices.create({ index: target, body: body as never });
    const copy = () =>
      this.client.reindex({
        wait_for_completion: true,
        refresh: true,
        body: { conflicts: 'proceed', source: { index: source }, dest: { index: target, version_type: 'external_gte' }, script: ADOPT_SCRIPT },
      });
    await copy();
    await this.client.indices.updateAliases({
      body: { actions: [{ remove: { index: source, alias: this.alias } }, { add: { index: target, alias: this.alias } }] },
    });
    await copy();
    return { migratedFrom: source };
  }

  /**
   * Sets the replica count of the index behind the alias: 0 on one node (a replica could never be placed and
   * the cluster would stay yellow), 1 or more across zones. A dynamic setting, applied without a reindex.
   */
  async setReplicas(replicas: number): Promise<void> {
    await this.client.indices.putSettings({ index: this.alias, body: { index: { number_of_replicas: replicas } } });
  }

  /** The workspace's view; no I/O, so it may be taken per request. */
  forWorkspace(workspaceId: string): SearchIndex {
    if (!workspaceId) throw new Error('a search index view needs a workspace id');
    return {
      upsert: (document) => this.write(workspaceId, entryIdOf(workspaceId, document.id), toSource(workspaceId, document), document.version),
      remove: (documentId, version) =>
        this.write(workspaceId, entryIdOf(workspaceId, documentId), tombstoneSource(workspaceId, documentId), version + 1),
      search: async (request) => {
        const response = await this.client.search({
          index: this.alias,
          routing: routingOf(workspaceId),
          body: buildSearchBody(workspaceId, request) as never,
        });
        return parseSearchResponse(response.body as never);
      },
    };
  }

  /**
   * The workspace's live entries for the reconciliation: pages by document id from searches (they see what
   * the last refresh made visible), and single entries from a multi-get (real-time, what the index holds now).
   */
  listingOf(workspaceId: string): SearchIndexListing {
    if (!workspaceId) throw new Error('a search index listing needs a workspace id');
    return {
      entries: async ({ cursor, limit }) => {
        const response = await this.client.search({
          index: this.alias,
          routing: routingOf(workspaceId),
          body: buildListingBody(workspaceId, cursor, limit) as never,
        });
        return parseListingResponse(response.body as never, limit);
      },
      entriesOf: async (ids) => {
        const found: IndexEntry[] = [];
        for (let start = 0; start < ids.length; start += 500) {
          const chunk = ids.slice(start, start + 500);
          const response = await this.client.mget({
            index: this.alias,
            routing: routingOf(workspaceId),
            body: buildEntriesOfBody(workspaceId, chunk) as never,
          });
          found.push(...parseEntriesOfResponse(response.body as never, chunk));
        }
        return found;
      },
    };
  }

  /**
   * Erases a workspace's entries and tombstones (a workspace's erasure), refreshed so that a search after it
   * finds none; returns how many. Idempotent.
   */
  async eraseWorkspace(workspaceId: string): Promise<number> {
    const { body } = await this.client.deleteByQuery({
      index: this.alias,
      routing: routingOf(workspaceId),
      refresh: true,
      conflicts: 'proceed',
      body: { query: { term: { workspace_id: workspaceId } } },
    });
    return Number((body as { deleted?: number }).deleted ?? 0);
  }

  /** Drops every workspace's entries (tombstones too), for a rebuild: the one request without routing. */
  async clear(): Promise<void> {
    await this.client.deleteByQuery({ index: this.alias, refresh: true, conflicts: 'proceed', body: { query: { match_all: {} } } });
  }

  async ping(): Promise<void> {
    await this.client.indices.exists({ index: this.alias });
  }

  /** Makes every write so far visible to searches (tests, the rebuild command). */
  async refresh(): Promise<void> {
    await this.client.indices.refresh({ index: this.alias });
  }

  private async write(workspaceId: string, id: string, body: Record<string, unknown>, version: number): Promise<void> {
    try {
      await this.client.index({
        index: this.alias,
        id,
        routing: routingOf(workspaceId),
        body,
        version,
        version_type: 'external_gte',
        ...(this.refreshWrites ? { refresh: 'wait_for' as const } : {}),
      });
    } catch (error) {
      // A version conflict means the index already holds something newer: this write is stale, and done.
      if (statusOf(error) === 409) return;
      throw error;
    }
  }

  private async aliasTargets(): Promise<string[]> {
    try {
      const { body } = await this.client.indices.getAlias({ name: this.alias });
      return Object.keys(body as Record<string, unknown>).sort().reverse();
    } catch (error) {
      if (statusOf(error) === 404) return [];
      throw error;
    }
  }
}
