import { withoutControls } from '../display-text';

/** The most UTF-8 bytes a stored filename holds: what common file systems allow for one name. */
export const MAX_FILENAME_BYTES = 255;

/** The longest extension kept whole when a long name is cut. */
const MAX_KEPT_EXTENSION_BYTES = 16;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const utf8 = new TextEncoder();

/**
 * A filename safe to store and to send back in Content-Disposition: its last path segment, without controls,
 * bidirectional formatting or leading dots, and at most {@link MAX_FILENAME_BYTES} UTF-8 bytes, cut between
 * two graphemes (never inside a character) and keeping a short extension. An empty result is `document`.
 */
export function safeFilename(name: string): string {
  // No name longer than this many code units can keep more of itself: each code point is at least one byte.
  const base = (name.split(/[\\/]/).pop() ?? '').slice(0, MAX_FILENAME_BYTES * 4);
  const cleaned = withoutControls(base).replace(/^\.+/, '').trim();
  return fitBytes(cleaned).trim() || 'document';
}

/** The name within MAX_FILENAME_BYTES: its stem cut at a grapheme boundary, the extension kept when short. */
function fitBytes(name: string): string {
  if (utf8.encode(name).length <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot) : '';
  const extensionBytes = utf8.encode(extension).length;
  if (extension && extensionBytes <= MAX_KEPT_EXTENSION_BYTES) {
    return prefixWithin(name.slice(0, dot), MAX_FILENAME_BYTES - extensionBytes) + extension;
  }
  return prefixWithin(name, MAX_FILENAME_BYTES);
}

/** The longest run of whole graphemes from the start of `text` that fits in `limit` UTF-8 bytes. */
function prefixWithin(text: string, limit: number): string {
  let kept = '';
  let bytes = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = utf8.encode(segment).length;
    if (bytes + size > limit) break;
    kept += segment;
    bytes += size;
  }
  return kept;
}
