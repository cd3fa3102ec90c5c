import type { AddressPolicy } from './address-policy';

/** How the WebDAV client connects: the address policy of every connection, its timeouts and redirects. */
export interface WebDavFoldersOptions extends AddressPolicy {
  /** No response headers, or no body bytes, for this long → 'timeout' (default 30 s). */
  requestTimeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}
