import ipaddr from 'ipaddr.js';

/** Why an address is not a public unicast destination. */
export const ADDRESS_RISKS = [
  'cloud_metadata',
  'loopback',
  'private',
  'link_local',
  'carrier_grade_nat',
  'multicast',
  'unspecified',
  'broadcast',
  'reserved',
  'benchmarking',
  'documentation',
  'nat64_local',
  'teredo',
] as const;
/** One reason an address is forbidden. */
export type AddressRisk = (typeof ADDRESS_RISKS)[number];

/** The verdict on one address. `effective` is the IPv4 address an IPv6 form embeds, or the address itself. */
export interface AddressVerdict {
  address: string;
  effective: string;
  risk?: AddressRisk;
}

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number, AddressRisk];

const range = (cidr: string, risk: AddressRisk): Range => {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  return [address, bits, risk];
};

/** Addresses of cloud instance-metadata services (AWS, GCP, Azure, Alibaba, Oracle, AWS IPv6). */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
]);

// Checked in order; the first match names the risk. Ranges ipaddr.js already labels are listed anyway so
// the reason is stable across library versions.
const FORBIDDEN_RANGES: readonly Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier_grade_nat'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link_local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', 'reserved'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('255.255.255.255/32', 'broadcast'),
  range('240.0.0.0/4', 'reserved'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'nat64_local'),
  range('100::/64', 'reserved'),
  range('2001::/32', 'teredo'),
  range('2001:2::/48', 'benchmarking'),
  range('2001:10::/28', 'reserved'),
  range('2001:20::/28', 'reserved'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
  range('fc00::/7', 'private'),
  range('fe80::/10', 'link_local'),
  range('fec0::/10', 'reserved'),
  range('ff00::/8', 'multicast'),
];

/**
 * Finds the IPv4 address an IPv6 address carries: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002:AABB:CCDD::`).
 * Each of these can reach the embedded IPv4 host, so it must be judged by that host.
 */
export function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const parts = address.parts;
  const fromWords = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && parts[5] === 0xffff) return fromWords(parts[6], parts[7]);
  if (zeros(0, 4) && parts[4] === 0xffff && parts[5] === 0) return fromWords(parts[6], parts[7]);
  if (zeros(0, 6) && (parts[6] !== 0 || parts[7] > 1)) return fromWords(parts[6], parts[7]);
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6)) return fromWords(parts[6], parts[7]);
  if (parts[0] === 0x2002) return fromWords(parts[1], parts[2]);
  return undefined;
}

function rangeRisk(address: ipaddr.IPv4 | ipaddr.IPv6): AddressRisk | undefined {
  if (METADATA_ADDRESSES.has(address.toString())) return 'cloud_metadata';
  for (const [base, bits, risk] of FORBIDDEN_RANGES) {
    if (base.kind() === address.kind() && address.match(base, bits)) return risk;
  }
  return undefined;
}

function riskOf(address: ipaddr.IPv4 | ipaddr.IPv6): AddressRisk | undefined {
  // Anything else ipaddr.js does not call plain unicast (newer special-purpose ranges) is refused too.
  return rangeRisk(address) ?? (address.range() === 'unicast' ? undefined : 'reserved');
}

/**
 * Classifies an address as a destination for an outbound request: no `risk` means public unicast.
 * IPv6 forms that embed an IPv4 address are judged by the embedded address (and by their own range).
 */
export function classifyAddress(input: string | ipaddr.IPv4 | ipaddr.IPv6): AddressVerdict {
  const address = typeof input === 'string' ? ipaddr.parse(input) : input;
  const text = address.toString();
  if (address.kind() === 'ipv6') {
    const embedded = embeddedIpv4(address as ipaddr.IPv6);
    if (embedded !== undefined) {
      return { address: text, effective: embedded.toString(), risk: riskOf(embedded) ?? rangeRisk(address) };
    }
  }
  return { address: text, effective: text, risk: riskOf(address) };
}
