import { BlockList, isIP } from 'node:net';

/**
 * Which proxies in front of the server are believed about the client's address (X-Forwarded-For) and
 * scheme (X-Forwarded-Proto): a fixed number of hops, or the proxies' own addresses.
 */
export type TrustedProxies = { hops: number } | { addresses: string[] };

/** Named ranges, as proxy-addr (Express, Fastify) names them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Why one TRUST_PROXY entry cannot be used, or null when it is a named range, an address or a CIDR.
 * Only full forms are accepted: `10.1` or `1` would otherwise be read as 10.0.0.1 or 0.0.0.1.
 */
export function trustedProxyEntryProblem(entry: string): string | null {
  if (entry in NAMED_RANGES) return null;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return `"${entry}" is not an IP address, a CIDR range or loopback/linklocal/uniquelocal`;
  if (prefix === undefined) return null;
  const maxPrefix = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > maxPrefix) return `"${entry}" has no valid prefix length`;
  // A /0 trusts every address: any client could then name its own address.
  if (Number(prefix) === 0) return `"${entry}" trusts every address`;
  return null;
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) is 127.0.0.1. */
function normalise(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/**
 * The trust function Fastify (proxy-addr) walks X-Forwarded-For with, from the socket's address
 * (hop 0) leftwards: request.ip is the first address not trusted, i.e. the one the last trusted hop
 * saw. Entries further left were written by the client and are never believed.
 */
export function trustFunction(proxies: TrustedProxies): (address: string, hop: number) => boolean {
  if ('hops' in proxies) {
    const { hops } = proxies;
    return (_address, hop) => hop < hops;
  }
  const list = new BlockList();
  for (const entry of proxies.addresses) {
    for (const range of NAMED_RANGES[entry] ?? [entry]) {
      const [address = '', prefix] = range.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) list.addAddress(address, type);
      else list.addSubnet(address, Number(prefix), type);
    }
  }
  return (address) => {
    const plain = normalise(address);
    const family = isIP(plain);
    if (family === 0) return false;
    return list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}
