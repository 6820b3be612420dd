import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which cluster base URLs and which addresses we are willing to call.
 * - `allowedHosts`: lower-case host names or `*.domain` patterns; empty means any host.
 * - `allowedNetworks`: CIDR strings (`127.0.0.0/8`, `::1/128`) that are reachable although not public.
 * - `allowHttp`: accept `http:` besides `https:`.
 */
export interface UrlPolicy {
  allowedHosts: string[];
  allowedNetworks: string[];
  allowHttp: boolean;
}

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/** The error a checking lookup fails with; `code` lets the HTTP client tell it from a network failure. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_FEDERATION_ADDRESS_REFUSED';
  constructor(
    readonly hostname: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'AddressRefusedError';
  }
}

type Family = 'ipv4' | 'ipv6';
interface Range {
  label: string;
  list: BlockList;
}

function range(label: string, cidrs: string[], family: Family): Range {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/');
    list.addSubnet(net!, Number(bits), family);
  }
  return { label, list };
}

// Order matters only for the label: broadcast is listed before the reserved 240/4 that contains it.
const V4_RANGES: Range[] = [
  range('an unspecified ("this network") address', ['0.0.0.0/8'], 'ipv4'),
  range('a loopback address', ['127.0.0.0/8'], 'ipv4'),
  range('a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'], 'ipv4'),
  range('a carrier-grade NAT address', ['100.64.0.0/10'], 'ipv4'),
  // 169.254.169.254 is the cloud metadata service: the classic SSRF target.
  range('a link-local address', ['169.254.0.0/16'], 'ipv4'),
  range('a broadcast address', ['255.255.255.255/32'], 'ipv4'),
  range('a multicast address', ['224.0.0.0/4'], 'ipv4'),
  range('a reserved address', ['240.0.0.0/4', '192.0.0.0/24', '192.88.99.0/24', '198.18.0.0/15'], 'ipv4'),
  range('a documentation address', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'], 'ipv4'),
];

const V6_RANGES: Range[] = [
  range('an unspecified address', ['::/128'], 'ipv6'),
  range('a loopback address', ['::1/128'], 'ipv6'),
  range('a private (unique local) address', ['fc00::/7'], 'ipv6'),
  range('a link-local address', ['fe80::/10', 'fec0::/10'], 'ipv6'),
  range('a multicast address', ['ff00::/8'], 'ipv6'),
  range('a documentation address', ['2001:db8::/32'], 'ipv6'),
  // These embed or translate to IPv4 addresses (NAT64, 6to4, Teredo), which could lead back to a private network.
  range('an IPv4 translation address', ['64:ff9b::/96', '64:ff9b:1::/48', '2002::/16', '2001::/23'], 'ipv6'),
];

// Everything routable on the public IPv6 internet is inside 2000::/3; whatever is not listed above is refused too.
const V6_GLOBAL_UNICAST = range('', ['2000::/3'], 'ipv6').list;

const allowedCache = new Map<string, BlockList>();

/** The allowed networks as one BlockList; entries that are not valid CIDRs are skipped (see `policyProblems`). */
function allowedList(networks: string[]): BlockList {
  const key = networks.join(',');
  let list = allowedCache.get(key);
  if (!list) {
    list = new BlockList();
    for (const cidr of networks) {
      const parsed = parseCidr(cidr);
      if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    allowedCache.set(key, list);
  }
  return list;
}

function parseCidr(cidr: string): { address: string; prefix: number; family: Family } | null {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(cidr.trim());
  if (!match) return null;
  const address = match[1]!;
  const prefix = Number(match[2]);
  const version = isIP(address);
  if (version === 4 && prefix <= 32) return { address, prefix, family: 'ipv4' };
  if (version === 6 && prefix <= 128) return { address, prefix, family: 'ipv6' };
  return null;
}

/** Problems with a policy's settings, for the configuration check at startup (each names its setting). */
export function policyProblems(policy: UrlPolicy): string[] {
  const problems: string[] = [];
  for (const cidr of policy.allowedNetworks) {
    if (!parseCidr(cidr)) problems.push(`FEDERATION_ALLOWED_NETWORKS: "${cidr}" is not a CIDR such as 10.0.0.0/8 or ::1/128`);
  }
  for (const host of policy.allowedHosts) {
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host)) {
      problems.push(`FEDERATION_ALLOWED_HOSTS: "${host}" is not a lower-case host name or a *.domain pattern`);
    }
  }
  return problems;
}

/**
 * Brings an IP literal to the form the ranges are written in: no brackets, no zone id, compressed IPv6,
 * and an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, in any spelling) as the IPv4 address it stands for.
 */
function normaliseAddress(raw: string): { address: string; family: Family } | null {
  const bare = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return { address: bare, family: 'ipv4' };
  if (version !== 6) return null;
  // The URL parser canonicalises IPv6 (lower case, zeros compressed, an embedded IPv4 tail as hex).
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return { address: canonical, family: 'ipv6' };
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return { address: [high >> 8, high & 255, low >> 8, low & 255].join('.'), family: 'ipv4' };
}

/**
 * Why we must not connect to `address`, or null when we may: any address that is not public (loopback, private,
 * link-local, metadata, multicast, reserved, ...) is refused unless it lies in one of `policy.allowedNetworks`.
 */
export function addressProblem(address: string, policy: UrlPolicy): string | null {
  const normal = normaliseAddress(address);
  if (!normal) return `${address} is not an IP address`;
  if (allowedList(policy.allowedNetworks).check(normal.address, normal.family)) return null;
  const ranges = normal.family === 'ipv4' ? V4_RANGES : V6_RANGES;
  const hit = ranges.find((r) => r.list.check(normal.address, normal.family));
  const isPublicV6 = normal.family === 'ipv4' || V6_GLOBAL_UNICAST.check(normal.address, 'ipv6');
  const label = hit?.label ?? (isPublicV6 ? null : 'not a global unicast address');
  if (!label) return null;
  return `${normal.address} is ${label}; add its network to FEDERATION_ALLOWED_NETWORKS to allow it`;
}

function hostAllowed(host: string, allowedHosts: string[]): boolean {
  if (allowedHosts.length === 0) return true;
  return allowedHosts.some((pattern) =>
    pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern,
  );
}

/**
 * Checks and normalises a cluster's base URL (syntax and policy only; the addresses a host name resolves to are
 * checked when connecting, by `checkedLookup`). The result has no trailing slash: `https://a.example.org/neuro`.
 */
export function checkBaseUrl(raw: string, policy: UrlPolicy): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The base URL is not a valid absolute URL.' };
  }
  if (url.protocol === 'http:' && !policy.allowHttp) {
    return { ok: false, reason: 'The base URL must use https (http is allowed only with FEDERATION_ALLOW_HTTP).' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: 'The base URL must use https.' };
  }
  if (url.username || url.password) return { ok: false, reason: 'The base URL must not contain a user name or password.' };
  // A bare "?" or "#" parses to an empty search or hash, so look at the text as well.
  if (url.search || /\?/.test(raw)) return { ok: false, reason: 'The base URL must not have a query string.' };
  if (url.hash || /#/.test(raw)) return { ok: false, reason: 'The base URL must not have a fragment.' };
  const host = url.hostname;
  if (!host) return { ok: false, reason: 'The base URL has no host.' };
  if (host.endsWith('.')) return { ok: false, reason: 'The base URL host must not end with a dot.' };
  // Port 0 means "any port" to a listener and reaches no server: no cluster can be called there.
  if (url.port === '0') return { ok: false, reason: 'The base URL port must be between 1 and 65535 (got 0).' };
  if (isIP(host.replace(/^\[|\]$/g, ''))) {
    const problem = addressProblem(host, policy);
    if (problem) return { ok: false, reason: `The base URL's address is refused: ${problem}.` };
  }
  if (!hostAllowed(host, policy.allowedHosts)) {
    return { ok: false, reason: `The host ${host} is not in FEDERATION_ALLOWED_HOSTS.` };
  }
  const path = url.pathname.replace(/\/+$/, '');
  return { ok: true, url: `${url.protocol}//${url.host}${path}` };
}

/**
 * Resolves a host name and fails with `AddressRefusedError` when ANY of its addresses is refused: a name that
 * resolves to a public and a private address could otherwise be connected to the private one.
 */
export function resolveChecked(hostname: string, policy: UrlPolicy, family: 0 | 4 | 6 = 0): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, family }, (err, addresses) => {
      if (err) return reject(err);
      const refused = refusedAddress(hostname, addresses, policy);
      if (refused) return reject(refused);
      resolve(addresses);
    });
  });
}

function refusedAddress(hostname: string, addresses: LookupAddress[], policy: UrlPolicy): AddressRefusedError | null {
  if (addresses.length === 0) return new AddressRefusedError(hostname, `${hostname} resolves to no address`);
  for (const { address } of addresses) {
    const problem = addressProblem(address, policy);
    if (problem) return new AddressRefusedError(hostname, `${hostname} resolves to ${problem}`);
  }
  return null;
}

/**
 * A `lookup` for `http.request` / `https.request` that refuses hosts resolving to a refused address. It runs at
 * connect time, so a name that is re-pointed at a private address after registration (DNS rebinding) is caught.
 * Node skips `lookup` for IP literals: those are checked by `checkBaseUrl`, which the client runs on every call.
 */
export function checkedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    resolveChecked(hostname, policy, family).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
