import { SourceAccessError, type RemoteEntry } from '../../domain/sources/remote-folder';
import { MalformedXml, readXml, type XmlElement } from './xml-reader';

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

/**
 * Reads a PROPFIND 207 multistatus body into {@link RemoteEntry}s relative to the root URL. Only `200`
 * propstats count (a prop under a 404 propstat is absent). Hrefs may be absolute or path-only: only their path
 * is compared (the adapter never requests an href, it builds URLs from the root), segment by segment after
 * decoding, so servers that encode differently from the client still match.
 *
 * @throws SourceAccessError 'protocol' when the body is not a multistatus, or an href is outside the root or
 *   has a `.`/`..` segment (a server that does that is not to be trusted with the rest of the listing).
 */
export function parseMultistatus(body: string, options: MultistatusOptions): ParsedMultistatus {
  let root: XmlElement;
  try {
    root = readXml(body);
  } catch (error) {
    if (!(error instanceof MalformedXml)) throw error;
    throw new SourceAccessError('protocol', `The server answered with a body that is not a WebDAV multistatus: ${error.message}.`);
  }
  if (root.ns !== DAV || root.local !== 'multistatus') {
    throw new SourceAccessError('protocol', 'The server answered with XML that is not a WebDAV multistatus.');
  }
  const rootUrl = new URL(options.rootUrl);
  const rootSegments = decodeSegments(rootUrl.pathname, rootUrl.pathname) ?? rootUrl.pathname.split('/').filter(Boolean);
  const prefix = options.prefix ? options.prefix.split('/').filter(Boolean) : [];
  const entries: RemoteEntry[] = [];
  const skipped: SkippedResponse[] = [];

  for (const response of davChildren(root, 'response')) {
    const href = davChild(response, 'href')?.text.trim() ?? '';
    if (!href) {
      skipped.push({ href, reason: 'the response has no href' });
      continue;
    }
    let path = rawPath(href);
    if (!path.startsWith('/')) path = `${rootUrl.pathname.replace(/\/?$/, '/')}${path}`;
    const segments = decodeSegments(path, href);
    if (!segments) {
      skipped.push({ href, reason: 'the href cannot be decoded into a path (bad percent-encoding or an encoded "/")' });
      continue;
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
      skipped.push({ href, reason: `the server answered ${responseStatus} for it` });
      continue;
    }

    const resourceType = props.get('resourcetype');
    const isDirectory = resourceType ? davChildren(resourceType, 'collection').length > 0 : path.endsWith('/');
    const etag = props.get('getetag')?.text.trim() || null;
    const length = props.get('getcontentlength')?.text.trim() ?? '';
    entries.push({
      path: [...prefix, ...segments.slice(rootSegments.length)].join('/'),
      kind: isDirectory ? 'directory' : 'file',
      etag,
      size: !isDirectory && /^\d+$/.test(length) ? Number(length) : null,
      lastModified: isoDate(props.get('getlastmodified')?.text),
    });
  }
  return { entries, skipped };
}
