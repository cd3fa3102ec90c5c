import { withoutControls } from '../domain/display-text';

/**
 * RFC 6266 / 5987: an ASCII fallback and the exact UTF-8 name, so any filename survives the header. Names
 * stored before filenames were cleaned may hold controls or half a surrogate pair: they are cleaned here too,
 * so that no stored name can make the header fail (encodeURIComponent throws on a lone surrogate).
 */
export function attachmentDisposition(filename: string): string {
  const name = withoutControls(filename) || 'document';
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
