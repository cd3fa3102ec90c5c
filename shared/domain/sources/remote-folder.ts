/**
 * What a sync reads from a source: a remote folder tree (WebDAV), listed one directory at a time and read one
 * file at a time. The adapter (`shared/adapters/webdav/`) speaks the protocol, guards the addresses it
 * connects to and maps every failure to a {@link SourceAccessError}.
 */

/** One entry of a listing: a file or a directory under the source's root. */
export interface RemoteEntry {
  /**
   * The path under the source's root: decoded, '/'-separated, without leading or trailing '/'; '' is the root.
   * Never contains '.' or '..' segments.
   */
  path: string;
  kind: 'file' | 'directory';
  /** The entity tag as the server sent it, weak marker included (`W/"..."`); null when it sent none. */
  etag: string | null;
  /** Bytes (getcontentlength); null for directories and when the server sent none. */
  size: number | null;
  /** getlastmodified as an ISO 8601 timestamp; null when absent or unreadable. */
  lastModified: string | null;
}

/** A directory and its direct children (one PROPFIND, `Depth: 1`). */
export interface RemoteListing {
  directory: RemoteEntry;
  children: RemoteEntry[];
}

/** A file being read: its bytes as they arrive, never held whole. */
export interface RemoteFile {
  body: AsyncIterable<Uint8Array>;
  /** Content-Length when the server sent one. */
  size: number | null;
}

/** A connected source: the tree under its URL, read with its credentials. */
export interface RemoteFolder {
  /** Lists a directory (`''`: the root). Throws {@link SourceAccessError}. */
  list(path: string, options?: { signal?: AbortSignal }): Promise<RemoteListing>;
  /** Starts reading a file. Throws {@link SourceAccessError}; the body may throw it too, mid-stream. */
  read(path: string, options?: { signal?: AbortSignal }): Promise<RemoteFile>;
}

/** Where a source is and who it logs in as. */
export interface RemoteFolderConfig {
  url: string;
  username: string;
  password: string;
}

/** Opens remote folders (no request is sent until the first list or read). */
export interface RemoteFolders {
  open(config: RemoteFolderConfig): RemoteFolder;
}

/** Why a source could not be read; each is shown to users as a reason (never with the password). */
export type SourceAccessFailure =
  /** DNS failed, connection refused or reset, a TLS handshake that failed for another reason than trust. */
  | 'unreachable'
  /** The server's TLS certificate is not trusted: self-signed, signed by an unknown authority, expired, or for another name. */
  | 'untrusted_certificate'
  /** No answer (headers or body) within the adapter's time limit. */
  | 'timeout'
  /** 401: the username or password is wrong. */
  | 'unauthorized'
  /** 403 on a path. */
  | 'forbidden'
  /** 404 (or 410). */
  | 'not_found'
  /** The URL (or a listed path) is a file, not a collection. */
  | 'not_a_collection'
  /** The address is not allowed (a private, loopback or link-local range when they are refused), on any hop. */
  | 'address_not_allowed'
  /** A folder's listing is larger than the adapter reads (entries or bytes): no source can sync it. */
  | 'listing_too_large'
  /** Too many redirects, a redirect to another scheme than http(s), or an answer that is not WebDAV. */
  | 'protocol';

export class SourceAccessError extends Error {
  constructor(
    readonly failure: SourceAccessFailure,
    message: string,
    /** The HTTP status when the server answered with one. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SourceAccessError';
  }
}
