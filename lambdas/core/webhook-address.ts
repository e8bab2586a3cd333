// Which network addresses a webhook may reach: global unicast only. Pure rules, applied to every
// address a host resolves to at the moment a delivery connects (so a DNS
// answer that changes after registration cannot point a delivery inside the
// network) and, as an early courtesy, at registration and submission.

import ipaddr from 'ipaddr.js';
import net from 'node:net';

export interface AddressPolicy {
  /** The local server (development) may call receivers on loopback; the cloud never does. */
  allowLoopback: boolean;
}

// One rule, from a maintained address library (ipaddr.js, which tracks the
// IANA special-purpose registries): a webhook may reach global unicast
// addresses and nothing else. IPv6 must also lie in 2000::/3, the only space
// allocated for global unicast, so a form that embeds an IPv4 address
// (IPv4-mapped, IPv4-compatible, SIIT, NAT64 incl. 64:ff9b:1::/48, 6to4,
// Teredo) is refused whatever address it carries: none of them is needed to
// reach a public receiver, which has an address of its own.

/** Words for the ranges ipaddr.js names. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified ("this network") address',
  broadcast: 'the broadcast address (reserved)',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (the range of the cloud metadata service)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  reserved: 'a reserved or documentation address',
  as112: 'an AS112 (DNS sink) address',
  amt: 'an AMT relay address',
  uniqueLocal: 'a unique-local (private) address, the range of the cloud metadata service over IPv6',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  deprecatedSiteLocal: 'a site-local (private) address',
  discard: 'a discard-only address',
  rfc6145: 'an IPv4-translated (SIIT) IPv6 address',
  rfc6052: 'a NAT64 address, which embeds an IPv4 address',
  '6to4': 'a 6to4 address, which embeds an IPv4 address',
  teredo: 'a Teredo address, which embeds an IPv4 address',
  benchmarking: 'a benchmarking address',
  as112v6: 'an AS112 (DNS sink) address',
  deprecatedOrchid: 'an ORCHID (non-routable) address',
  orchid2: 'an ORCHID (non-routable) address',
  droneRemoteIdProtocolEntityTags: 'a non-routable identifier address',
  segmentRouting: 'a segment-routing address',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The address's kind when it is not global unicast (a key of RANGE_WORDS, or a description), or null when it is. */
function nonGlobal(ip: string): string | null {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip.split('%')[0]!);
  } catch {
    return 'not an IP address';
  }
  const range = address.range();
  if (address.kind() === 'ipv6') {
    const g = (address as ipaddr.IPv6).parts;
    const compatible = range === 'unicast' && g.slice(0, 6).every((x) => x === 0);
    const embedded = compatible ? 'an IPv4-compatible IPv6 address' : EMBEDS_V4.has(range) ? RANGE_WORDS[range]! : null;
    if (embedded) {
      const v4 = embeddedV4(g, range);
      const v4Kind = nonGlobal(v4);
      return `${embedded.replace(/, which embeds an IPv4 address$/, '')} (it embeds ${v4}${v4Kind ? `, ${v4Kind}` : ''}); use the receiver's own address`;
    }
    if (range === 'unicast' && !address.match(GLOBAL_UNICAST_V6)) return 'outside the global unicast space (2000::/3)';
  }
  if (range !== 'unicast') return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  return null;
}

/** The IPv6 forms that carry an IPv4 address. */
const EMBEDS_V4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

/** The IPv4 address an embedding IPv6 address carries (for the message). */
function embeddedV4(g: number[], range: string): string {
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  if (range === '6to4') return v4(g[1]!, g[2]!);
  // Teredo stores the client's address with every bit inverted.
  if (range === 'teredo') return v4(~g[6]! & 0xffff, ~g[7]! & 0xffff);
  return v4(g[6]!, g[7]!);
}

/** 127.0.0.0/8, ::1, and 127.x written as an IPv4-mapped IPv6 address (how a dual-stack socket reports it). */
export function isLoopbackAddress(ip: string): boolean {
  try {
    const address = ipaddr.parse(ip.split('%')[0]!);
    if (address.kind() === 'ipv4') return address.range() === 'loopback';
    const v6 = address as ipaddr.IPv6;
    return v6.range() === 'loopback' || (v6.isIPv4MappedAddress() && v6.toIPv4Address().range() === 'loopback');
  } catch {
    return false;
  }
}

/** Why a delivery must not connect to `ip`, or null when it may: anything but global unicast is refused. */
export function addressRefusal(ip: string, policy: AddressPolicy): string | null {
  if (!net.isIP(ip.split('%')[0]!)) return `${ip} is not an IP address`;
  if (policy.allowLoopback && isLoopbackAddress(ip)) return null;
  const why = nonGlobal(ip);
  return why ? `${ip} is ${why}` : null;
}

/** A URL's host as an IP literal (brackets stripped), or null when it is a name to resolve. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return net.isIP(bare) ? bare : null;
}

export type LookupHost = (hostname: string) => Promise<string[]>;

/**
 * Resolves the URL's host and says why it is refused, or null. A host that
 * does not resolve now is not refused: DNS may be briefly down, and the
 * delivery checks again when it connects.
 */
export async function hostRefusal(url: URL, policy: AddressPolicy, lookupHost: LookupHost): Promise<string | null> {
  const literal = ipLiteral(url.hostname);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await lookupHost(url.hostname);
    } catch {
      return null;
    }
  }
  for (const address of addresses) {
    const why = addressRefusal(address, policy);
    if (why) return literal ? why : `${url.hostname} resolves to ${why}`;
  }
  return null;
}
