import ipaddr from 'ipaddr.js';

/**
 * One allowlist entry: a CIDR range (`10.0.0.0/8`, `::1/128`, a bare address means a single host),
 * optionally limited to some ports so a test can open exactly one loopback server and nothing else.
 */
export type AllowlistEntry = string | { cidr: string; ports?: readonly number[] };

interface ParsedEntry {
  base: ipaddr.IPv4 | ipaddr.IPv6;
  bits: number;
  ports?: ReadonlySet<number>;
}

/** Ranges an operator (or a test) allows despite being private, loopback or otherwise forbidden. */
export class CidrAllowlist {
  private constructor(private readonly entries: readonly ParsedEntry[]) {}

  /** An allowlist that allows nothing: the default. */
  static readonly EMPTY = new CidrAllowlist([]);

  /** Parses entries; throws a readable error naming the first bad one. */
  static parse(entries: readonly AllowlistEntry[] = []): CidrAllowlist {
    return new CidrAllowlist(
      entries.map((entry) => {
        const { cidr, ports } = typeof entry === 'string' ? { cidr: entry, ports: undefined } : entry;
        let parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
        try {
          parsed = cidr.includes('/') ? ipaddr.parseCIDR(cidr) : singleHost(ipaddr.parse(cidr));
        } catch (error) {
          throw new Error(
            `SSRF allowlist entry "${cidr}" is not a CIDR range such as 10.0.0.0/8 or ::1/128.`,
            { cause: error },
          );
        }
        if (ports?.some((port) => !Number.isInteger(port) || port < 1 || port > 65535)) {
          throw new Error(`SSRF allowlist entry "${cidr}" has a port outside 1-65535.`);
        }
        return { base: parsed[0], bits: parsed[1], ports: ports === undefined ? undefined : new Set(ports) };
      }),
    );
  }

  /** Whether the address (in any of its forms: literal or embedded IPv4) on this port is allowed. */
  allows(addresses: readonly string[], port: number): boolean {
    return this.entries.some(
      (entry) =>
        (entry.ports === undefined || entry.ports.has(port)) &&
        addresses.some((text) => {
          const address = ipaddr.parse(text);
          return address.kind() === entry.base.kind() && address.match(entry.base, entry.bits);
        }),
    );
  }

  get size(): number {
    return this.entries.length;
  }
}

function singleHost(address: ipaddr.IPv4 | ipaddr.IPv6): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
