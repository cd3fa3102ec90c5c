import type { SearchFilters, SearchResults } from '../../domain/search/ports';

/** What filters and facets read of one live document. */
export interface FacetEntry {
  mimeType: string;
  status: string;
  ocrConfidence: number | null;
  createdAt: string;
  labelIds: string[];
}

/**
 * The filter and facet fields of every live document of one workspace of the embedded index, held in memory by
 * the sequence of its row id in the workspace's range (the adapter keeps one of these per workspace).
 *
 * Why: the total and the facets are counted over the whole match set, which for a common word is most of the
 * index. SQLite reads a row per match for that; counting here, in memory, is much faster
 * (bench/search.ts). The SQLite table stays the source of truth: the adapter loads this copy when it opens
 * the file and changes it after each committed write, which is exact because one process (the local runtime)
 * writes the index.
 */
export class FacetColumns {
  private live = new Uint8Array(0);
  private liveCount = 0;
  private mime = new Uint32Array(0);
  private status = new Uint32Array(0);
  private confidence = new Float64Array(0);
  private createdAt: string[] = [];
  /** Each document's set of labels, as a code into `labelSets`: one number to count per match. */
  private labelSet = new Uint32Array(0);
  /** Strings (MIME types, statuses, label ids) are stored as codes into this table. */
  private readonly codes = new Map<string, number>();
  private readonly strings: string[] = [];
  /** The distinct sets of label codes (code 0 is the empty set), and their codes by key. */
  private readonly labelSets: Uint32Array[] = [new Uint32Array(0)];
  private readonly labelSetCodes = new Map<string, number>([['', 0]]);

  set(rid: number, entry: FacetEntry): void {
    this.ensure(rid);
    this.forget(rid);
    this.live[rid] = 1;
    this.liveCount++;
    this.mime[rid] = this.code(entry.mimeType);
    this.status[rid] = this.code(entry.status);
    this.confidence[rid] = entry.ocrConfidence ?? Number.NaN;
    this.createdAt[rid] = entry.createdAt;
    this.labelSet[rid] = this.labelSetCode(entry.labelIds);
  }

  delete(rid: number): void {
    this.forget(rid);
  }

  clear(): void {
    this.live.fill(0);
    this.createdAt = [];
    this.liveCount = 0;
  }

  /** The number of live documents. */
  get size(): number {
    return this.liveCount;
  }

  /** The number of live matches (sequences of the workspace's row ids) that pass the filters, and their facets. */
  count(rids: Uint32Array, filters: SearchFilters): Pick<SearchResults, 'total' | 'facets'> {
    const accepts = this.filter(filters);
    // Counters indexed by string code: no hashing in a loop that can run 100,000 times.
    const mimeCounts = new Uint32Array(this.strings.length);
    const setCounts = new Uint32Array(this.labelSets.length);
    const { live, mime, labelSet } = this;
    let total = 0;
    for (let i = 0; i < rids.length; i++) {
      const rid = rids[i]!;
      if (rid >= live.length || !live[rid] || (accepts && !accepts(rid))) continue;
      total++;
      mimeCounts[mime[rid]!]!++;
      setCounts[labelSet[rid]!]!++;
    }
    const labelCounts = new Uint32Array(this.strings.length);
    setCounts.forEach((count, set) => {
      for (const label of this.labelSets[set]!) labelCounts[label]! += count;
    });
    return { total, facets: { mime_types: this.named(mimeCounts), labels: this.named(labelCounts) } };
  }

  /** The same conditions as the SQL filters of the page query (`filterSql`), on the in-memory fields. */
  private filter(filters: SearchFilters): ((rid: number) => boolean) | null {
    const checks: ((rid: number) => boolean)[] = [];
    const codesOf = (values: string[]) => new Set(values.map((value) => this.codes.get(value) ?? -1));
    if (filters.mimeTypes?.length) {
      const wanted = codesOf(filters.mimeTypes);
      checks.push((rid) => wanted.has(this.mime[rid]!));
    }
    if (filters.status?.length) {
      const wanted = codesOf(filters.status);
      checks.push((rid) => wanted.has(this.status[rid]!));
    }
    if (filters.labels?.length) {
      const wanted = codesOf(filters.labels);
      const passes = this.labelSets.map((set) => set.some((label) => wanted.has(label)));
      checks.push((rid) => passes[this.labelSet[rid]!]!);
    }
    const { dateFrom, dateTo, minConfidence } = filters;
    if (dateFrom) checks.push((rid) => this.createdAt[rid]! >= dateFrom);
    if (dateTo) checks.push((rid) => this.createdAt[rid]! <= dateTo);
    // NaN (no confidence) fails the comparison, as NULL does in SQL.
    if (minConfidence !== undefined) checks.push((rid) => this.confidence[rid]! >= minConfidence);
    return checks.length ? (rid) => checks.every((check) => check(rid)) : null;
  }

  private named(counts: Uint32Array): Record<string, number> {
    const result: Record<string, number> = {};
    counts.forEach((count, code) => {
      if (count) result[this.strings[code]!] = count;
    });
    return result;
  }

  private code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.strings.push(value) - 1;
      this.codes.set(value, code);
    }
    return code;
  }

  private labelSetCode(labelIds: string[]): number {
    const codes = [...new Set(labelIds.map((id) => this.code(id)))].sort((a, b) => a - b);
    const key = codes.join(',');
    let set = this.labelSetCodes.get(key);
    if (set === undefined) {
      set = this.labelSets.push(Uint32Array.from(codes)) - 1;
      this.labelSetCodes.set(key, set);
    }
    return set;
  }

  private forget(rid: number): void {
    if (rid >= this.live.length || !this.live[rid]) return;
    this.live[rid] = 0;
    this.liveCount--;
  }

  /** Grows the typed arrays (doubling) so that `rid` fits. */
  private ensure(rid: number): void {
    if (rid < this.live.length) return;
    const size = Math.max(1024, 2 ** Math.ceil(Math.log2(rid + 1)));
    const grow = <T extends Uint8Array | Uint32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.live = grow(this.live, (n) => new Uint8Array(n));
    this.mime = grow(this.mime, (n) => new Uint32Array(n));
    this.status = grow(this.status, (n) => new Uint32Array(n));
    this.confidence = grow(this.confidence, (n) => new Float64Array(n));
    this.labelSet = grow(this.labelSet, (n) => new Uint32Array(n));
  }
}
