// Which network addresses a webhook may reach. Pure rules, applied to every
// address a host resolves to at the moment a delivery connects (so a DNS
// answer that changes after registration cannot point a delivery inside the
// network) and, as an early courtesy, at registration and submission.

import net from 'node:net';

export interface AddressPolicy {
  /** The local server (development) may call receivers on loopback; the cloud never does. */
  allowLoopback: boolean;
}

const V4_REFUSED: [string, number, string][] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT (shared) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address (this range holds the cloud metadata service)'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

const v4ToInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function v4Refusal(ip: string): string | null {
  const value = v4ToInt(ip);
  for (const [base, bits, why] of V4_REFUSED) {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    if (value >= start && value < start + size) return why;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (with any dotted IPv4 tail folded in). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v = v4ToInt(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':').filter(Boolean) : [];
  const right = tail ? tail.split(':').filter(Boolean) : [];
  const fill = tail === null ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => parseInt(g, 16));
}

const v4FromGroups = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function v6Refusal(ip: string): { why: string; loopback: boolean } | null {
  const g = v6Groups(ip);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(7) && g[7] === 1) return { why: 'a loopback address', loopback: true };
  if (zeroUpTo(8)) return { why: 'an unspecified address', loopback: false };
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::)
  // all reach an IPv4 address: judge that address.
  const embedded =
    zeroUpTo(5) && (g[5] === 0xffff || g[5] === 0)
      ? v4FromGroups(g[6]!, g[7]!)
      : g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)
        ? v4FromGroups(g[6]!, g[7]!)
        : g[0] === 0x2002
          ? v4FromGroups(g[1]!, g[2]!)
          : null;
  if (embedded) {
    const why = v4Refusal(embedded);
    return why ? { why: `${why} (${embedded}, embedded in an IPv6 address)`, loopback: embedded.startsWith('127.') } : null;
  }
  if ((g[0]! & 0xffc0) === 0xfe80) return { why: 'a link-local address', loopback: false };
  if ((g[0]! & 0xfe00) === 0xfc00) return { why: 'a unique-local (private) address, the range of the cloud metadata service over IPv6', loopback: false };
  if ((g[0]! & 0xff00) === 0xff00) return { why: 'a multicast address', loopback: false };
  if (g[0] === 0x2001 && g[1] === 0xdb8) return { why: 'a documentation address', loopback: false };
  return null;
}

export const isLoopbackAddress = (ip: string): boolean =>
  net.isIPv4(ip) ? ip.startsWith('127.') : net.isIPv6(ip) ? (v6Refusal(ip)?.loopback ?? false) : false;

/** Why a delivery must not connect to `ip`, or null when it may. */
export function addressRefusal(ip: string, policy: AddressPolicy): string | null {
  if (policy.allowLoopback && isLoopbackAddress(ip)) return null;
  if (net.isIPv4(ip)) {
    const why = v4Refusal(ip);
    return why ? `${ip} is ${why}` : null;
  }
  if (net.isIPv6(ip)) {
    const refusal = v6Refusal(ip);
    return refusal ? `${ip} is ${refusal.why}` : null;
  }
  return `${ip} is not an IP address`;
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
