import type { FilePatterns } from './file-patterns';
import type { RememberedFile, SyncStateStore, SyncWorkItem } from './ports';
import type { RemoteEntry, RemoteFolder } from './remote-folder';
import type { SyncCounts } from './sync-job';

/** The longest path a sync keeps (the table's sort key holds it, with room to spare); longer ones are skipped. */
export const MAX_REMOTE_PATH_BYTES = 900;

export interface DirectoryStep {
  sourceId: string;
  jobId: string;
  recursive: boolean;
  /** Compare every file whatever the directory ETags say. */
  fullWalk: boolean;
  patterns: FilePatterns;
}

/** What walking one directory found: files to fetch went to the work list; the rest is counted here. */
export interface DirectoryOutcome {
  /** Files considered (matched by the patterns). */
  total: number;
  counts: Partial<SyncCounts>;
  skipped: Array<{ path: string; reason: string }>;
  /** Whether the server was asked (a directory whose ETag is trusted is not listed again). */
  listed: boolean;
}

/**
 * Walks one directory of the work list (one listing). A directory whose ETag is the one remembered from the last
 * sync has the files it had then: they count as unchanged without a comparison; a subdirectory without
 * subdirectories of its own whose ETag (in this listing) is unchanged is not even listed: its remembered
 * summary counts its files. Otherwise its files are compared with the remembered ones (ETag,
 * or size and last-modified when the server gives no ETag) and the new and changed ones join the work list,
 * each with the id of the document it will become. Subdirectories join the work list when the source is
 * recursive. Files gone from the server are forgotten; their documents stay.
 */
export async function walkDirectory(
  deps: { syncState: SyncStateStore },
  folder: RemoteFolder,
  step: DirectoryStep,
  item: Extract<SyncWorkItem, { kind: 'directory' }>,
): Promise<DirectoryOutcome> {
  const remembered = await deps.syncState.directory(step.sourceId, item.path);
  const trusted = (before: string | null | undefined, now: string | null) => !step.fullWalk && before !== undefined && sameEtag(before, now);
  const listing = await folder.list(item.path);
  const subdirectories = new Map<string, string | null>();
  const work: SyncWorkItem[] = [];
  const skipped: DirectoryOutcome['skipped'] = [];
  // Leaves whose ETag did not move hold what they held: counted from their summary, not listed again.
  let untouched = 0;
  for (const child of listing.children) {
    if (child.kind !== 'directory' || !step.recursive) continue;
    if (byteLength(child.path) > MAX_REMOTE_PATH_BYTES) {
      skipped.push({ path: child.path, reason: 'the path is too long' });
      continue;
    }
    const name = nameOf(child.path);
    subdirectories.set(name, child.etag);
    const summary = remembered?.summaries.get(name);
    if (summary && summary.directories === 0 && trusted(remembered?.directories.get(name), child.etag)) untouched += summary.files;
    else work.push({ kind: 'directory', path: child.path, etag: child.etag });
  }
  let outcome: DirectoryOutcome;
  let rememberedFiles: number;
  if (remembered && trusted(remembered.etag, listing.directory.etag)) {
    rememberedFiles = remembered.files.size;
    outcome = { total: rememberedFiles + untouched, counts: { unchanged: rememberedFiles + untouched }, skipped, listed: true };
  } else {
    const files = listing.children.filter((child) => child.kind === 'file' && step.patterns.matches(child.path));
    const known = remembered?.files ?? new Map<string, RememberedFile>();
    let unchanged = 0;
    let considered = 0;
    for (const file of files) {
      if (byteLength(file.path) > MAX_REMOTE_PATH_BYTES) {
        skipped.push({ path: file.path, reason: 'the path is too long' });
        continue;
      }
      considered++;
      const before = known.get(nameOf(file.path));
      if (before && !differs(before, file)) unchanged++;
      else work.push(fileWork(file, before));
    }
    const listed = new Set(files.map((file) => nameOf(file.path)));
    const gone = [...known.keys()].filter((name) => !listed.has(name)).map((name) => joinPath(item.path, name));
    if (gone.length) await deps.syncState.forgetFiles(step.sourceId, gone);
    rememberedFiles = considered;
    outcome = { total: considered + skipped.length + untouched, counts: { unchanged: unchanged + untouched, skipped: skipped.length }, skipped, listed: true };
  }
  // The work first, then the directory: a step that dies between them lists it again rather than lose files.
  await deps.syncState.addWork(step.jobId, work);
  await deps.syncState.saveDirectory(step.sourceId, item.path, listing.directory.etag, subdirectories);
  await deps.syncState.summarize(step.sourceId, item.path, listing.directory.etag, { files: rememberedFiles, directories: subdirectories.size });
  return outcome;
}

/** Whether a file changed since it was remembered: by ETag when both have one, else by size and last-modified. */
export function differs(before: RememberedFile, now: RemoteEntry): boolean {
  if (before.etag !== null && now.etag !== null) return !sameEtag(before.etag, now.etag);
  return before.size !== now.size || before.last_modified !== now.lastModified;
}

/**
 * Whether two ETags name the same content, weakly compared (RFC 9110 §8.8.3.2): Apache marks a file's ETag
 * weak (`W/`) for the first second after a change and strong later, with the content unchanged.
 */
export const sameEtag = (a: string | null, b: string | null): boolean => a !== null && b !== null && a.replace(/^W\//, '') === b.replace(/^W\//, '');

function fileWork(file: RemoteEntry, before: RememberedFile | undefined): SyncWorkItem {
  return {
    kind: 'file',
    path: file.path,
    etag: file.etag,
    size: file.size,
    last_modified: file.lastModified,
    document_id: before?.document_id ?? crypto.randomUUID(),
    replaces: before?.document_id ?? null,
  };
}

export const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
export const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const joinPath = (parent: string, name: string) => (parent ? `${parent}/${name}` : name);
const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;
