import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may deliver. Link-local (cloud metadata) and "this network" addresses never;
 * loopback and private ranges only when the operator allows them. Checked on every address a name
 * resolves to, at send time, so a name that later points inside the network is still refused.
 */
const ALWAYS_REFUSED = ['0.0.0.0/8', '169.254.0.0/16', 'fe80::/10', '::/128'].map((c) => ipaddr.parseCIDR(c));
const PRIVATE = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '::1/128',
  'fc00::/7',
].map((c) => ipaddr.parseCIDR(c));

const within = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: typeof PRIVATE) =>
  ranges.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));

/** Why `address` is refused, or null when it may be delivered to. */
export function refusedAddress(address: string, allowPrivateNetworks: boolean): string | null {
  if (!ipaddr.isValid(address)) return `'${address}' is not an IP address`;
  let parsed = ipaddr.parse(address);
  // An IPv4-mapped IPv6 address reaches the IPv4 host: judge that.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (within(parsed, ALWAYS_REFUSED)) return `${address} is a link-local or unspecified address, never delivered to`;
  if (!allowPrivateNetworks && within(parsed, PRIVATE)) {
    return `${address} is a loopback or private address (set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it)`;
  }
  return null;
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
