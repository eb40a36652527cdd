import { SecretLeakError } from './errors/secret-leak-error.js';
import { toVisibleText } from './invisible-characters.js';
import { LeakDetector, MIN_KNOWN_SECRET_LENGTH } from './leak-detector.js';
import { outgoingRequestViews, type OutgoingRequest } from './outgoing-request-views.js';

/** What one egress scan is told besides the request. */
export interface EgressScanOptions {
  /** Exact values granted to the call: refused in any form (raw, percent-encoded, base64, hex). */
  knownSecrets?: readonly string[];
  /**
   * Values this request is meant to carry to this destination (its own bearer token, the OAuth refresh
   * token on a token request): ignored wherever they occur, so they neither match a key format nor hide
   * one. Everything else in the request is scanned.
   */
  expectedValues?: readonly string[];
}

/** A secret found in a request: its kind and the part it was in. Never the value. */
export interface EgressFinding {
  kind: string;
  part: string;
}

/**
 * The egress leak scan: reads a request the way its receiver can (URL percent-decoded repeatedly and as
 * a form, userinfo, headers, the body by content type, nested base64 and hex, invisible characters
 * removed — see {@link outgoingRequestViews}) and looks in every reading for the known key formats and
 * for the exact secrets granted to the call. Block on any finding: a request is not redacted, it is
 * refused before it is sent.
 */
export class EgressScanner {
  constructor(private readonly detector: LeakDetector = new LeakDetector()) {}

  /** Every secret the request would carry out, one finding per kind and part. */
  scan(request: OutgoingRequest, options: EgressScanOptions = {}): EgressFinding[] {
    const known = knownSecretForms(options.knownSecrets ?? []);
    const expected = expectedForms(options.expectedValues ?? []);
    const findings = new Map<string, EgressFinding>();
    for (const view of outgoingRequestViews(request)) {
      const text = expected.length === 0 ? view.text : withoutExpected(view.text, expected);
      for (const finding of this.detector.scan(text, known))
        findings.set(`${finding.kind}\n${view.part}`, { kind: finding.kind, part: view.part });
    }
    return [...findings.values()];
  }

  /** Throws {@link SecretLeakError} naming the kinds and parts when the request carries a secret. */
  enforce(request: OutgoingRequest, options: EgressScanOptions = {}): void {
    const findings = this.scan(request, options);
    if (findings.length === 0) return;
    let host: string;
    try {
      host = new URL(String(request.url)).host;
    } catch {
      host = 'an invalid URL';
    }
    const parts = [...new Set(findings.map((finding) => finding.part))].join(', ');
    throw new SecretLeakError(
      `egress to ${host} (${parts})`,
      findings.map((finding) => finding.kind),
    );
  }
}

/** The forms a granted secret takes once encoded for a URL, a form, base64 or hex. */
export function knownSecretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    const plain = toVisibleText(secret).text;
    if (plain.length < MIN_KNOWN_SECRET_LENGTH) continue;
    const bytes = Buffer.from(plain, 'utf8');
    const hex = bytes.toString('hex');
    forms
      .add(plain)
      .add(encodeURIComponent(plain))
      .add(encodeURIComponent(plain).replaceAll('%20', '+'))
      .add(bytes.toString('base64').replace(/=+$/, ''))
      .add(bytes.toString('base64url'))
      .add(hex)
      .add(hex.toUpperCase());
  }
  return [...forms];
}

function expectedForms(values: readonly string[]): string[] {
  // Longest first, so a value that contains another is removed whole.
  return knownSecretForms(values).sort((left, right) => right.length - left.length);
}

function withoutExpected(text: string, expected: readonly string[]): string {
  let result = toVisibleText(text).text;
  for (const value of expected) if (result.includes(value)) result = result.replaceAll(value, ' ');
  return result;
}
