import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { parseLegacyIpv4 } from './legacy-ipv4-parser.js';

/** A host reduced to one canonical form: an IP address or a lower-case ASCII name without a trailing dot. */
export type NormalizedHost =
  { kind: 'ip'; address: ipaddr.IPv4 | ipaddr.IPv6; text: string } | { kind: 'name'; name: string };

/**
 * Normalises a host as it may appear in a URL or a header: percent-encoding, brackets, IPv6 zone ids,
 * trailing dots, upper case, Unicode (IDNA, so full-width digits become ASCII) and the legacy IPv4
 * spellings. Returns undefined when nothing valid is left.
 */
export function normalizeHost(raw: string): NormalizedHost | undefined {
  let host = raw.trim();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  // A zone id (`%eth0`, `%25eth0`) names a local interface; it never changes which address is reached.
  const zone = host.indexOf('%');
  if (zone !== -1 && host.includes(':')) host = host.slice(0, zone);
  try {
    host = decodeURIComponent(host);
  } catch {
    return undefined;
  }
  host = host.replace(/\.+$/, '').toLowerCase();
  if (host === '') return undefined;

  if (host.includes(':')) {
    if (!ipaddr.IPv6.isValid(host)) return undefined;
    const address = ipaddr.IPv6.parse(host);
    return { kind: 'ip', address, text: address.toString() };
  }
  const ascii = domainToASCII(host);
  if (ascii === '') return undefined;
  const ipv4 = parseLegacyIpv4(ascii);
  if (ipv4 !== undefined) return { kind: 'ip', address: ipaddr.IPv4.parse(ipv4), text: ipv4 };
  // The WHATWG rule: a host whose last label is numeric must be an IPv4 address or it is invalid.
  const lastLabel = ascii.split('.').pop() ?? '';
  if (/^(?:0x[0-9a-f]*|[0-9]+)$/i.test(lastLabel)) return undefined;
  return { kind: 'name', name: ascii.replace(/\.+$/, '') };
}
