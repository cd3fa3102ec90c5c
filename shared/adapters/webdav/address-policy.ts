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

const parseV6 = (input: string): bigint | null => {
  const address = input.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) says nothing about the range
  if (isIP(address) !== 6) return null;
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

const range = (cidr: string, kind: AddressClass): Range => {
  const [address = '', bits = ''] = cidr.split('/');
  const v4 = parseV4(address);
  const base = v4 ?? parseV6(address);
  if (base === null || !/^\d+$/.test(bits)) throw new TypeError(`Not a CIDR: ${cidr}`);
  return { base, bits: Number(bits), width: v4 === null ? 128 : 32, kind };
};

const contains = (r: Range, value: bigint, width: 32 | 128): boolean =>
  r.width === width && value >> BigInt(width - r.bits) === r.base >> BigInt(width - r.bits);

// IANA special-purpose registries; anything not listed is public.
const V4_RANGES: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link_local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', 'reserved'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'broadcast'),
  range('240.0.0.0/4', 'reserved'),
];

// Only 2000::/3 is global unicast; inside it, these are not (or hide an IPv4 address: see classifyAddress).
const V6_RANGES: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('fc00::/7', 'private'),
  range('fe80::/10', 'link_local'),
  range('fec0::/10', 'private'),
  range('ff00::/8', 'multicast'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
  range('2001::/23', 'reserved'),
];
const GLOBAL_UNICAST = range('2000::/3', 'public');
const MAPPED = range('::ffff:0:0/96', 'public');
const NAT64 = range('64:ff9b::/96', 'public');
const SIX_TO_FOUR = range('2002::/16', 'public');

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
