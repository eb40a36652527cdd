import ipaddr from 'ipaddr.js';
import { classifyAddress } from './address-classifier.js';
import { displayUrl } from './display-url.js';
import { CidrAllowlist, type AllowlistEntry } from './cidr-allowlist.js';
import { HostUnresolvedError } from './errors/host-unresolved-error.js';
import { SsrfBlockedError } from './errors/ssrf-blocked-error.js';
import { forbiddenHostnameReason } from './hostname-denylist.js';
import { systemHostLookup, type HostLookup } from './host-lookup.js';
import { normalizeHost } from './host-normalizer.js';

/** Options of an {@link SsrfGuard}; every field is optional. */
export interface SsrfGuardOptions {
  /** Ranges allowed despite being private or loopback. Default: none. Cloud metadata addresses stay refused. */
  allowlist?: readonly AllowlistEntry[];
  /** Resolves names. Default: the system resolver ({@link systemHostLookup}). */
  lookup?: HostLookup;
}

/** A URL that passed the guard, with the one address the connection must go to. */
export interface CheckedTarget {
  url: URL;
  /** The normalised host: a lower-case name, or an IP address without brackets. */
  hostname: string;
  /** Whether `hostname` is a name (needs the pinned address and SNI) or an IP literal. */
  hostKind: 'name' | 'ip';
  /** The checked address to connect to. */
  address: string;
  family: 4 | 6;
  port: number;
  /**
   * Whether the pinned `address` passed only because the operator's allowlist covers it (a private range
   * they trust). It describes that one address, never the set: a public first answer next to an
   * allowlisted second one is not "allowlisted".
   */
  allowlisted: boolean;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/**
 * Decides whether an outbound request may go to a URL: http(s) only, no credentials in the URL, and every
 * address the host resolves to must be public (or allowlisted). The caller must then connect to
 * `CheckedTarget.address` and nothing else, so a second lookup cannot swap in another address.
 */
export class SsrfGuard {
  private readonly allowlist: CidrAllowlist;
  private readonly lookup: HostLookup;

  constructor(options: SsrfGuardOptions = {}) {
    this.allowlist = CidrAllowlist.parse(options.allowlist ?? []);
    this.lookup = options.lookup ?? systemHostLookup;
  }

  /** Checks a URL; throws {@link SsrfBlockedError} when it is refused. Calls the lookup at most once. */
  async check(input: string | URL): Promise<CheckedTarget> {
    let url: URL;
    try {
      url = new URL(input);
    } catch (error) {
      throw new SsrfBlockedError({ url: String(input).slice(0, 200), reason: 'invalid_url' }, error);
    }
    const shown = displayUrl(url);
    if (!(url.protocol in DEFAULT_PORTS)) throw new SsrfBlockedError({ url: shown, reason: 'scheme' });
    const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
    const host = normalizeHost(url.hostname);
    if (host === undefined) throw new SsrfBlockedError({ url: shown, reason: 'invalid_host' });

    let hostname: string;
    let answers: readonly { address: string; family: number }[];
    if (host.kind === 'ip') {
      hostname = host.text;
      answers = [{ address: host.text, family: host.address.kind() === 'ipv4' ? 4 : 6 }];
    } else {
      hostname = host.name;
      const nameReason = forbiddenHostnameReason(host.name);
      if (nameReason !== undefined) throw new SsrfBlockedError({ url: shown, reason: nameReason });
      answers = await this.resolve(host.name);
    }

    // Every answer must pass, not only the one pinned: a later connection attempt (happy eyeballs, a
    // resolver that reorders) must never reach an address that was not checked.
    const checked = answers.map((answer) => this.checkAddress(shown, answer.address, port));
    // Credentials in a URL would travel as Basic auth; the host injects credentials, a URL never carries them.
    if (url.username !== '' || url.password !== '')
      throw new SsrfBlockedError({ url: shown, reason: 'credentials_in_url' });
    const first = checked[0];
    return {
      url,
      hostname,
      hostKind: host.kind,
      address: first.address,
      family: first.family,
      port,
      allowlisted: first.allowlisted,
    };
  }

  private async resolve(name: string): Promise<readonly { address: string; family: number }[]> {
    let answers: readonly { address: string; family: number }[];
    try {
      answers = await this.lookup(name);
    } catch (error) {
      throw new HostUnresolvedError(name, error);
    }
    if (answers.length === 0) throw new HostUnresolvedError(name);
    return answers;
  }

  private checkAddress(
    shown: string,
    raw: string,
    port: number,
  ): { address: string; family: 4 | 6; allowlisted: boolean } {
    const text = raw.replace(/%.*$/, '');
    if (!ipaddr.isValid(text))
      throw new SsrfBlockedError({ url: shown, reason: 'invalid_address', address: raw });
    const address = ipaddr.parse(text);
    const verdict = classifyAddress(address);
    const allowed =
      verdict.risk === undefined ||
      (verdict.risk !== 'cloud_metadata' &&
        this.allowlist.allows([verdict.address, verdict.effective], port));
    if (!allowed)
      throw new SsrfBlockedError({
        url: shown,
        reason: verdict.risk ?? 'forbidden',
        address: verdict.address,
      });
    return {
      address: verdict.address,
      family: address.kind() === 'ipv4' ? 4 : 6,
      allowlisted: verdict.risk !== undefined,
    };
  }
}
