/**
 * PROPFIND answers read into entries. A listing comes from a server nobody vouched for, so it is read as it
 * arrives, in slices of {@link SLICE_CHARS} with the event loop handed back between them, one `<response>` held
 * at a time, and refused beyond {@link LISTING_LIMITS}.
 * Time-sliced, not a worker: the reader is a loop that can stop anywhere; a worker would copy the body and need a bundle entry.
 */
import { setImmediate } from 'node:timers/promises';
import { SourceAccessError, type RemoteEntry } from '../../domain/sources/remote-folder';
import { MalformedXml, XmlStreamReader, type XmlElement } from './xml-reader';

/** A `<response>` that was left out of the result, and why (logged by the caller, shown to no one). */
export interface SkippedResponse {
  href: string;
  reason: string;
}

export interface ParsedMultistatus {
  /** Every readable response, in the server's order; paths are relative to the root URL (with the prefix). */
  entries: RemoteEntry[];
  skipped: SkippedResponse[];
}

const DAV = 'DAV:';

const davChildren = (element: XmlElement, local: string): XmlElement[] =>
  element.children.filter((child) => child.ns === DAV && child.local === local);
const davChild = (element: XmlElement, local: string): XmlElement | undefined => davChildren(element, local)[0];

/** `HTTP/1.1 200 OK` → 200; null when unreadable. */
const statusCode = (element: XmlElement | undefined): number | null => {
  const match = element ? /^HTTP\/\d(?:\.\d)?\s+(\d{3})/i.exec(element.text.trim()) : null;
  return match ? Number(match[1]) : null;
};

/** RFC 1123 (what getlastmodified carries) → ISO 8601; null when unreadable. */
const isoDate = (value: string | undefined): string | null => {
  if (!value) return null;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

/** The path part of an href, as sent (still percent-encoded), without scheme, authority, query or fragment. */
const rawPath = (href: string): string => {
  const withoutAuthority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(href);
  const path = withoutAuthority ? href.slice(withoutAuthority[0].length) || '/' : href;
  return path.split(/[?#]/, 1)[0] ?? '';
};

/**
 * Splits a percent-encoded path into decoded segments. `.` and `..` are refused before any normalisation
 * could fold them (`new URL` would), encoded or not; a segment that cannot be decoded is reported as null.
 */
const decodeSegments = (path: string, href: string): string[] | null => {
  const segments: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '.' || segment === '..') {
      throw new SourceAccessError('protocol', `The server listed a path with a "${segment}" segment: ${href}`);
    }
    // An encoded '/' (or NUL) inside a name cannot be told apart from a separator later on.
    if (segment.includes('/') || segment.includes('\0')) return null;
    segments.push(segment);
  }
  return segments;
};

export interface MultistatusOptions {
  /** The URL the entries are relative to: the source's root (or, after a redirect, where the listing was answered). */
  rootUrl: string | URL;
  /** Prepended to every entry's path ('' by default): the listed path when rootUrl is the listed directory. */
  prefix?: string;
}

/** How large a listing may be; beyond either it is refused with {@link ListingTooLarge}. */
export interface ListingLimits {
  /** The body's bytes, as received. */
  maxBytes: number;
  /** Entries of one directory, the directory itself not counted (every `<response>` counts, skipped or not). */
  maxEntries: number;
}

/**
 * A real listing takes a few hundred bytes an entry, so the byte cap leaves the entry cap the one a real server
 * meets; together they bound what a hostile server's listing costs in time and memory.
 */
export const LISTING_LIMITS: Readonly<ListingLimits> = { maxBytes: 32 * 1024 * 1024, maxEntries: 50_000 };

/** What one slice reads before the event loop gets its turn: a few ms of work on a busy machine. */
export const SLICE_CHARS = 16 * 1024;

/** A response holds about 15 elements; this leaves room for any server's extra properties. */
const MAX_RESPONSE_ELEMENTS = 1_000;

/** A listing beyond {@link ListingLimits}: the server's answer is not a directory anyone can sync. */
export class ListingTooLarge extends SourceAccessError {
  constructor(message: string) {
    super('listing_too_large', message);
    this.name = 'ListingTooLarge';
  }
}

const notMultistatus = (error: MalformedXml): SourceAccessError =>
  new SourceAccessError('protocol', `The server answered with a body that is not a WebDAV multistatus: ${error.message}.`);

/**
 * A multistatus read piece by piece: each `<response>` becomes an entry (or a skipped one) as soon as it is
 * closed, and is not kept. `write` and `end` throw what {@link parseMultistatus} documents.
 */
function multistatusReader(options: MultistatusOptions, maxEntries: number) {
  const rootUrl = new URL(options.rootUrl);
  const rootSegments = decodeSegments(rootUrl.pathname, rootUrl.pathname) ?? rootUrl.pathname.split('/').filter(Boolean);
  const prefix = options.prefix ? options.prefix.split('/').filter(Boolean) : [];
  const result: ParsedMultistatus = { entries: [], skipped: [] };
  let responses = 0;
  const checkRoot = (root: XmlElement): void => {
    if (root.ns !== DAV || root.local !== 'multistatus') {
      throw new SourceAccessError('protocol', 'The server answered with XML that is not a WebDAV multistatus.');
    }
  };
  const onRootChild = (child: XmlElement, root: XmlElement): void => {
    checkRoot(root);
    if (child.ns !== DAV || child.local !== 'response') return;
    // The directory answers for itself as well as for its entries.
    if ((responses += 1) > maxEntries + 1) throw new ListingTooLarge(`The listing has more than ${maxEntries} entries.`);
    readResponse(child, { rootUrl, rootSegments, prefix }, result);
  };
  // One response's tree at a time: the byte cap, not an element count, bounds the rest.
  const reader = new XmlStreamReader({ onRootChild, maxChildElements: MAX_RESPONSE_ELEMENTS, maxElements: Infinity });
  const guarded = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw error instanceof MalformedXml ? notMultistatus(error) : error;
    }
  };
  return {
    write: (text: string): void => guarded(() => reader.write(text)),
    end: (text = ''): ParsedMultistatus => {
      checkRoot(guarded(() => reader.end(text)));
      return result;
    },
  };
}

/** One `<response>` → an entry in `result`, or a skipped one. */
function readResponse(
  response: XmlElement,
  { rootUrl, rootSegments, prefix }: { rootUrl: URL; rootSegments: string[]; prefix: string[] },
  result: ParsedMultistatus,
): void {
  const href = davChild(response, 'href')?.text.trim() ?? '';
  if (!href) {
    result.skipped.push({ href, reason: 'the response has no href' });
    return;
  }
  let path = rawPath(href);
  if (!path.startsWith('/')) path = `${rootUrl.pathname.replace(/\/?$/, '/')}${path}`;
  const segments = decodeSegments(path, href);
  if (!segments) {
    result.skipped.push({ href, reason: 'the href cannot be decoded into a path (bad percent-encoding or an encoded "/")' });
    return;
  }
  const insideRoot = rootSegments.length <= segments.length && rootSegments.every((segment, i) => segments[i] === segment);
  if (!insideRoot) throw new SourceAccessError('protocol', `The server listed a path outside the source: ${href}`);

  const props = new Map<string, XmlElement>();
  for (const propstat of davChildren(response, 'propstat')) {
    if (statusCode(davChild(propstat, 'status')) !== 200) continue;
    for (const prop of davChildren(propstat, 'prop')) {
      for (const value of prop.children) if (value.ns === DAV) props.set(value.local, value);
    }
  }
  const responseStatus = statusCode(davChild(response, 'status'));
  if (props.size === 0 && responseStatus !== null && responseStatus !== 200) {
    result.skipped.push({ href, reason: `the server answered ${responseStatus} for it` });
    return;
  }

  const resourceType = props.get('resourcetype');
  const isDirectory = resourceType ? davChildren(resourceType, 'collection').length > 0 : path.endsWith('/');
  const etag = props.get('getetag')?.text.trim() || null;
  const length = props.get('getcontentlength')?.text.trim() ?? '';
  result.entries.push({
    path: [...prefix, ...segments.slice(rootSegments.length)].join('/'),
    kind: isDirectory ? 'directory' : 'file',
    etag,
    size: !isDirectory && /^\d+$/.test(length) ? Number(length) : null,
    lastModified: isoDate(props.get('getlastmodified')?.text),
  });
}

/**
 * Reads a PROPFIND 207 multistatus body, given whole, into {@link RemoteEntry}s relative to the root URL. Only
 * `200` propstats count (a prop under a 404 propstat is absent). Hrefs may be absolute or path-only: only their
 * path is compared (the adapter never requests an href, it builds URLs from the root), segment by segment after
 * decoding, so servers that encode differently from the client still match. {@link readMultistatus} reads one
 * as it arrives.
 *
 * @throws SourceAccessError 'protocol' when the body is not a multistatus, or an href is outside the root or
 *   has a `.`/`..` segment (a server that does that is not to be trusted with the rest of the listing).
 * @throws ListingTooLarge beyond `maxEntries` (default {@link LISTING_LIMITS}).
 */
export function parseMultistatus(body: string, options: MultistatusOptions & Partial<Pick<ListingLimits, 'maxEntries'>>): ParsedMultistatus {
  return multistatusReader(options, options.maxEntries ?? LISTING_LIMITS.maxEntries).end(body);
}

/**
 * Reads a multistatus body as it arrives, as {@link parseMultistatus} does a whole one: UTF-8 decoded across
 * chunks, read in slices of {@link SLICE_CHARS} characters with the event loop's turn after each, so a listing
 * of any size never holds the thread for longer than one slice. Beyond the limits it stops reading (leaving the
 * body's iterator, which ends the response) and throws.
 *
 * @throws SourceAccessError as {@link parseMultistatus} does, and whatever `body` throws.
 * @throws ListingTooLarge beyond `maxBytes` or `maxEntries` (defaults: {@link LISTING_LIMITS}).
 */
export async function readMultistatus(
  body: AsyncIterable<Uint8Array>,
  options: MultistatusOptions & Partial<ListingLimits>,
): Promise<ParsedMultistatus> {
  const maxBytes = options.maxBytes ?? LISTING_LIMITS.maxBytes;
  const maxEntries = options.maxEntries ?? LISTING_LIMITS.maxEntries;
  const reader = multistatusReader(options, maxEntries);
  // Not fatal: a stray byte becomes U+FFFD, as Buffer.toString makes it, and an href with it is refused on its own.
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  for await (const chunk of body) {
    if ((bytes += chunk.byteLength) > maxBytes) {
      throw new ListingTooLarge(`The listing is larger than ${Math.floor(maxBytes / 1024 / 1024)} MiB.`);
    }
    const text = decoder.decode(chunk, { stream: true });
    for (let from = 0; from < text.length; from += SLICE_CHARS) {
      reader.write(text.slice(from, from + SLICE_CHARS));
      await setImmediate();
    }
  }
  return reader.end(decoder.decode());
}
