import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may deliver: ordinary unicast addresses; loopback, private, unique-local and
 * carrier-grade NAT ranges only when the operator allows them; every other special-purpose range
 * never (unspecified, link-local and cloud metadata, multicast, broadcast, documentation and
 * reserved blocks, and the IPv6 forms that carry an IPv4 address or tunnel to one: ::/96,
 * 64:ff9b::/96, ::ffff:0:0:0/96, 2002::/16, Teredo). Checked on every address a name resolves to,
 * at send time, so a name that later points inside the network is still refused. The ranges are
 * ipaddr.js's table of the IANA special-purpose registries.
 */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) reaches the IPv4 host; ::a.b.c.d does not map. */
function isMapped(address: ipaddr.IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff;
}

/**
 * The WHATWG URL parser's form of an IPv6 address: ipaddr.js reads `::10.0.0.1` (IPv4-compatible)
 * as if it were `::ffff:10.0.0.1` (mapped), the URL parser as `::a00:1`, as the kernel does.
 */
function canonical(address: string): string {
  return address.includes(':') ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address;
}

/** ::/96 other than :: and ::1: the deprecated IPv4-compatible form, never a real host. */
function ipv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() !== 'ipv6') return false;
  const parts = (address as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1);
}

/** Why `address` is refused, or null when it may be delivered to. */
export function refusedAddress(address: string, allowPrivateNetworks: boolean): string | null {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  let parsed = ipaddr.parse(canonical(address));
  if (parsed.kind() === 'ipv6' && isMapped(parsed as ipaddr.IPv6)) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = ipv4Compatible(parsed) ? 'IPv4-compatible' : parsed.range();
  if (range === 'unicast') return null;
  if (PRIVATE_RANGES.has(range)) {
    return allowPrivateNetworks
      ? null
      : `${address} is a loopback or private address (set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it)`;
  }
  return `${address} is a special-purpose address (${range}), never delivered to`;
}

/** Why `raw` cannot be a webhook URL, or null: http(s) only, no credentials, a host. */
export function invalidUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `'${raw}' is not a URL`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only https: and http: URLs can receive webhooks';
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed';
  if (url.hostname === '') return 'the URL has no host';
  return null;
}

/** Where a POST to `url` goes, as `http.request` takes it: an IPv6 host without its brackets. */
export function postTarget(url: URL) {
  return {
    protocol: url.protocol as 'http:' | 'https:',
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: 'POST',
  };
}
