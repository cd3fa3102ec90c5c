import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { SourceAccessError } from '../../domain/sources/remote-folder';

/** Which addresses a source may connect to. */
export interface AddressPolicy {
  /** Allow every address (a self-hosted install whose WebDAV server is on the LAN). */
  allowPrivateNetworks: boolean;
  /** CIDRs allowed even when private networks are refused, e.g. `['192.168.1.10/32']` for one NAS. */
  allowedNetworks?: readonly string[];
}

/** Why an address is refused; 'public' is the one allowed without {@link AddressPolicy.allowPrivateNetworks}. */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link_local'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved'
  | 'invalid';

interface Range {
  base: bigint;
  bits: number;
  width: 32 | 128;
  kind: AddressClass;
}

const parseV4 = (address: string): bigint | null => {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return null;
  return parts.reduce((sum, part) => (sum << 8n) | BigInt(part), 0n);
};

/**
 * The value of an IPv6 address in text form that is known to be one (`::` expanded, a dotted IPv4 tail read);
 * null when it does not come to eight groups.
 */
const expandV6 = (address: string): bigint | null => {
  let groups = address;
  const lastColon = groups.lastIndexOf(':');
  const tail = groups.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    if (v4 === null) return null;
    groups = `${groups.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = groups.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const all = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (all.length !== 8) return null;
  return all.reduce((sum, group) => (sum << 16n) | BigInt(`0x${group}`), 0n);
};

const parseV6 = (input: string): bigint | null => {
  const address = input.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) says nothing about the range
  return isIP(address) === 6 ? expandV6(address) : null;
};

const range = (cidr: string, kind: AddressClass, readV6: (address: string) => bigint | null = parseV6): Range => {
  const [address = '', bits = ''] = cidr.split('/');
  const v4 = parseV4(address);
  const base = v4 ?? readV6(address);
  if (base === null || !/^\d+$/.test(bits)) throw new TypeError(`Not a CIDR: ${cidr}`);
  return { base, bits: Number(bits), width: v4 === null ? 128 : 32, kind };
};

const contains = (r: Range, value: bigint, width: 32 | 128): boolean =>
  r.width === width && value >> BigInt(width - r.bits) === r.base >> BigInt(width - r.bits);

/**
 * One of this file's own ranges. Read without `isIP`: node compiles its IPv6 pattern on first use, which would
 * cost each cold start of the functions that carry this module, before any source was synced.
 */
const known = (cidr: string, kind: AddressClass): Range => range(cidr, kind, expandV6);

// IANA special-purpose registries; anything not listed is public.
const V4_RANGES: Range[] = [
  known('0.0.0.0/8', 'unspecified'),
  known('10.0.0.0/8', 'private'),
  known('100.64.0.0/10', 'shared'),
  known('127.0.0.0/8', 'loopback'),
  known('169.254.0.0/16', 'link_local'),
  known('172.16.0.0/12', 'private'),
  known('192.0.0.0/24', 'reserved'),
  known('192.0.2.0/24', 'documentation'),
  known('192.88.99.0/24', 'reserved'),
  known('192.168.0.0/16', 'private'),
  known('198.18.0.0/15', 'reserved'),
  known('198.51.100.0/24', 'documentation'),
  known('203.0.113.0/24', 'documentation'),
  known('224.0.0.0/4', 'multicast'),
  known('255.255.255.255/32', 'broadcast'),
  known('240.0.0.0/4', 'reserved'),
];

// Only 2000::/3 is global unicast; inside it, these are not (or hide an IPv4 address: see classifyAddress).
const V6_RANGES: Range[] = [
  known('::/128', 'unspecified'),
  known('::1/128', 'loopback'),
  known('fc00::/7', 'private'),
  known('fe80::/10', 'link_local'),
  known('fec0::/10', 'private'),
  known('ff00::/8', 'multicast'),
  known('2001:db8::/32', 'documentation'),
  known('3fff::/20', 'documentation'),
  known('2001::/23', 'reserved'),
];
const GLOBAL_UNICAST = known('2000::/3', 'public');
const MAPPED = known('::ffff:0:0/96', 'public');
const NAT64 = known('64:ff9b::/96', 'public');
const SIX_TO_FOUR = known('2002::/16', 'public');

const classifyV4 = (value: bigint): AddressClass => V4_RANGES.find((r) => contains(r, value, 32))?.kind ?? 'public';

/** The range an IPv4 or IPv6 address (text form, zone id allowed) is in; IPv4 embedded in IPv6 is unwrapped. */
export function classifyAddress(address: string): AddressClass {
  const v4 = parseV4(address);
  if (v4 !== null) return classifyV4(v4);
  const v6 = parseV6(address);
  if (v6 === null) return 'invalid';
  // ::ffff:10.0.0.1 (or ::ffff:a00:1) and NAT64 reach the IPv4 address they carry; 6to4 carries it in bits 16-48.
  if (contains(MAPPED, v6, 128) || contains(NAT64, v6, 128)) return classifyV4(v6 & 0xffffffffn);
  if (contains(SIX_TO_FOUR, v6, 128)) {
    const inner = classifyV4((v6 >> 80n) & 0xffffffffn);
    if (inner !== 'public') return inner;
  }
  const special = V6_RANGES.find((r) => contains(r, v6, 128));
  if (special) return special.kind;
  return contains(GLOBAL_UNICAST, v6, 128) ? 'public' : 'reserved';
}

/** Whether the policy lets a connection go to this address. */
export function isAddressAllowed(address: string, policy: AddressPolicy): boolean {
  if (policy.allowPrivateNetworks) return true;
  const kind = classifyAddress(address);
  if (kind === 'public') return true;
  if (kind === 'invalid' || !policy.allowedNetworks?.length) return false;
  const v4 = parseV4(address);
  const value = v4 ?? parseV6(address);
  if (value === null) return false;
  return policy.allowedNetworks.some((cidr) => contains(range(cidr, 'public'), value, v4 === null ? 128 : 32));
}

const refuse = (host: string, address: string): SourceAccessError =>
  new SourceAccessError(
    'address_not_allowed',
    `${host} is at ${address}, a ${classifyAddress(address).replace('_', '-')} address that sources may not connect to.`,
  );

/**
 * Checks a URL whose host is an IP literal (Node connects to those without a lookup, so the lookup hook
 * cannot see them). Host names are left to {@link createGuardedLookup}.
 * @throws SourceAccessError 'address_not_allowed'
 */
export function checkLiteralHost(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) && !isAddressAllowed(host, policy)) throw refuse(url.hostname, host);
}

type Resolver = (hostname: string, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const resolveAll: Resolver = (hostname, callback) => dnsLookup(hostname, { all: true, verbatim: true }, callback);

/**
 * A `lookup` for `net.connect`, `http.request` and agents: resolves every address of the name and fails with
 * SourceAccessError('address_not_allowed') when any is refused. The check sits in the socket's own lookup,
 * so it applies to every connection (each redirect hop) and the address checked is the address connected to:
 * no DNS rebinding between check and connect.
 */
export function createGuardedLookup(policy: AddressPolicy, resolve: Resolver = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, resolved) => {
      if (error) return callback(error, '', 4);
      const family = typeof options.family === 'number' ? options.family : options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : 0;
      const addresses = family ? resolved.filter((entry) => entry.family === family) : resolved;
      // Every address of the name, not just the one connected to: any of them may be used on a retry.
      const refused = resolved.find((entry) => !isAddressAllowed(entry.address, policy));
      if (refused) return callback(refuse(hostname, refused.address), '', 4);
      const [first] = addresses;
      if (!first) {
        const missing: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        return callback(missing, '', 4);
      }
      // Node ≥ 20 asks for every address (all: true) when it tries families in turn (autoSelectFamily).
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}
