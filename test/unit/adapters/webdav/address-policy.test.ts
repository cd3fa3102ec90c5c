import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  checkLiteralHost,
  classifyAddress,
  createGuardedLookup,
  isAddressAllowed,
  type AddressPolicy,
} from '../../../../shared/adapters/webdav/address-policy';
import { SourceAccessError } from '../../../../shared/domain/sources/remote-folder';

const STRICT: AddressPolicy = { allowPrivateNetworks: false };
const OPEN: AddressPolicy = { allowPrivateNetworks: true };

/** Runs the guarded lookup the way net.connect does, with or without `all`. */
const lookUp = (policy: AddressPolicy, hostname: string, all: boolean) =>
  new Promise<{ address: string | LookupAddress[]; family?: number }>((resolve, reject) => {
    createGuardedLookup(policy)(hostname, { all }, (error, address, family) => (error ? reject(error) : resolve({ address, family })));
  });

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.1.2', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.10', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['169.254.169.254', 'link_local'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
  ])('classifies the IPv4 address %s as %s', (address, kind) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.215.14'])('classifies the IPv4 address %s as public', (address) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe('public');
  });

  it.each([
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['100::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
  ])('classifies the IPv6 address %s as %s', (address, kind) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001:82b::200e'])('classifies the IPv6 address %s as public', (address) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe('public');
  });

  it.each([
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a00:1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['2002:a00:1::', 'private'],
    ['2002:7f00:1::1', 'loopback'],
  ])('unwraps the IPv4 address inside %s (%s)', (address, kind) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each(['::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('lets %s, which wraps a public IPv4 address, count as public', (address) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe('public');
  });

  it.each(['example.com', '1.2.3', '256.1.1.1', ''])('calls %j invalid', (address) => {
    // Act / Assert
    expect(classifyAddress(address)).toBe('invalid');
  });
});

describe('isAddressAllowed', () => {
  it('refuses a private address by default', () => {
    // Act / Assert
    expect(isAddressAllowed('192.168.1.10', STRICT)).toBe(false);
  });

  it('allows a public address', () => {
    // Act / Assert
    expect(isAddressAllowed('8.8.8.8', STRICT)).toBe(true);
  });

  it('allows every address when private networks are allowed', () => {
    // Act / Assert
    expect(['127.0.0.1', '::1', '169.254.169.254', '10.0.0.1'].every((address) => isAddressAllowed(address, OPEN))).toBe(true);
  });

  it('allows an address inside an allowed network, and only inside it', () => {
    // Arrange
    const policy: AddressPolicy = { allowPrivateNetworks: false, allowedNetworks: ['192.168.1.10/32', 'fd00:1::/64'] };

    // Act / Assert
    expect([isAddressAllowed('192.168.1.10', policy), isAddressAllowed('192.168.1.11', policy)]).toEqual([true, false]);
    expect([isAddressAllowed('fd00:1::5', policy), isAddressAllowed('fd00:2::5', policy)]).toEqual([true, false]);
  });
});

describe('checkLiteralHost', () => {
  it.each([
    'http://127.0.0.1:8080/dav/',
    'http://[::1]/dav/',
    'http://[::ffff:10.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0/',
  ])('refuses %s', (url) => {
    // Act
    const checking = () => checkLiteralHost(new URL(url), STRICT);

    // Assert
    expect(checking).toThrow(expect.objectContaining({ failure: 'address_not_allowed' }) as SourceAccessError);
  });

  it('lets a public literal address and any host name through (names are checked at lookup)', () => {
    // Act
    const checking = () => {
      checkLiteralHost(new URL('https://93.184.215.14/dav/'), STRICT);
      checkLiteralHost(new URL('https://localhost/dav/'), STRICT);
    };

    // Assert
    expect(checking).not.toThrow();
  });

  it('lets a private literal address through when private networks are allowed', () => {
    // Act / Assert
    expect(() => checkLiteralHost(new URL('http://10.0.0.1/'), OPEN)).not.toThrow();
  });
});

describe('createGuardedLookup', () => {
  it('fails a name that resolves to a loopback address', async () => {
    // Act
    const looking = lookUp(STRICT, 'localhost', false);

    // Assert
    await expect(looking).rejects.toMatchObject({ name: 'SourceAccessError', failure: 'address_not_allowed' });
  });

  it('fails it too when node asks for all addresses', async () => {
    // Act
    const looking = lookUp(STRICT, 'localhost', true);

    // Assert
    await expect(looking).rejects.toBeInstanceOf(SourceAccessError);
  });

  it('says which name and address were refused', async () => {
    // Act
    const looking = lookUp(STRICT, 'localhost', false);

    // Assert
    await expect(looking).rejects.toThrow(/localhost is at (127\.0\.0\.1|::1), a loopback address/);
  });

  it('resolves the name when private networks are allowed', async () => {
    // Act
    const { address } = await lookUp(OPEN, 'localhost', false);

    // Assert
    expect(['127.0.0.1', '::1']).toContain(address);
  });

  it('answers with every address when asked for all', async () => {
    // Act
    const { address } = await lookUp(OPEN, 'localhost', true);

    // Assert
    expect(Array.isArray(address) && address.every((entry) => ['127.0.0.1', '::1'].includes(entry.address))).toBe(true);
  });

  it('fails when any address of the name is refused, even if another is public', async () => {
    // Arrange: a name with one public and one private address, as a rebinding attacker would publish
    const resolver = (_name: string, callback: (error: null, addresses: LookupAddress[]) => void) =>
      callback(null, [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.5', family: 4 },
      ]);
    const lookup = createGuardedLookup(STRICT, resolver);

    // Act
    const looking = new Promise((resolve, reject) => lookup('mixed.example', {}, (error, address) => (error ? reject(error) : resolve(address))));

    // Assert
    await expect(looking).rejects.toMatchObject({ failure: 'address_not_allowed' });
  });

  it('passes a DNS failure through as it is', async () => {
    // Act
    const looking = lookUp(STRICT, 'no-such-host.invalid', false);

    // Assert
    await expect(looking).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
