import ipaddr from 'ipaddr.js';

/** A host reduced to one canonical form: an IP address or a lower-case ASCII name without a trailing dot. */
export type NormalizedHost =
  { kind: 'ip'; address: ipaddr.IPv4 | ipaddr.IPv6; text: string } | { kind: 'name'; name: string };

// Characters that would end the host inside a URL (or that special schemes read as `/`): a host that
// holds one is not a host, and must not be allowed to make the URL parser read a different one.
const URL_DELIMITERS = /[/?#@\\\s]/;

/**
 * Normalises a host as it may appear in a URL or a header: percent-encoding, brackets, IPv6 zone ids,
 * trailing dots, upper case, Unicode (IDNA, so full-width digits become ASCII) and the legacy IPv4
 * spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`). Names and IPv4 go through the WHATWG URL host
 * parser, which is what `fetch` and Node's `http` read, and IP addresses through ipaddr.js, so the
 * guard sees the same address the connection will. Returns undefined when nothing valid is left.
 */
export function normalizeHost(raw: string): NormalizedHost | undefined {
  let host = raw.trim();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.includes(':')) return normalizeIpv6(host);
  host = host.replace(/\.+$/, '');
  if (host === '' || URL_DELIMITERS.test(host)) return undefined;
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
  // Percent-encoded dots only become dots inside the parser.
  parsed = parsed.replace(/\.+$/, '');
  if (parsed === '') return undefined;
  if (parsed.startsWith('[')) return normalizeIpv6(parsed.slice(1, -1));
  if (ipaddr.IPv4.isValidFourPartDecimal(parsed)) {
    const address = ipaddr.IPv4.parse(parsed);
    return { kind: 'ip', address, text: address.toString() };
  }
  return { kind: 'name', name: parsed };
}

function normalizeIpv6(text: string): NormalizedHost | undefined {
  let host = text;
  // A zone id (`%eth0`, `%25eth0`) names a local interface; it never changes which address is reached.
  const zone = host.indexOf('%');
  if (zone !== -1) host = host.slice(0, zone);
  if (!ipaddr.IPv6.isValid(host)) return undefined;
  const address = ipaddr.IPv6.parse(host);
  return { kind: 'ip', address, text: address.toString() };
}
