import { originalSpan, toVisibleText, type VisibleText } from './invisible-characters.js';
import { LEAK_PATTERN_PREFILTER, LEAK_PATTERNS, type LeakPattern } from './leak-patterns.js';
import type { LeakFinding, LeakScanner } from './leak-scanner.js';

/** Known secrets shorter than this are ignored: redacting every `a` would destroy the text and hide nothing. */
export const MIN_KNOWN_SECRET_LENGTH = 6;

/**
 * Finds secrets in text: the common key formats plus exact values of known secrets. Invisible characters
 * (zero-width, BOM, NUL, soft hyphen) are removed before matching so they cannot split a key, and every
 * finding is mapped back to its span in the original text. Overlapping findings are merged.
 */
export class LeakDetector implements LeakScanner {
  private readonly standalone: readonly LeakPattern[];
  private readonly anchored: readonly LeakPattern[];
  /** Only the default patterns have a known prefilter; custom ones are always scanned. */
  private readonly prefilter?: RegExp;

  constructor(patterns: readonly LeakPattern[] = LEAK_PATTERNS) {
    this.standalone = patterns.filter((candidate) => candidate.near === undefined);
    this.anchored = patterns.filter((candidate) => candidate.near !== undefined);
    if (patterns === LEAK_PATTERNS) this.prefilter = LEAK_PATTERN_PREFILTER;
  }

  /** Every secret in `text`, sorted by start, without overlaps. */
  scan(text: string, knownSecrets: readonly string[] = []): LeakFinding[] {
    const visible = toVisibleText(text);
    const found: LeakFinding[] = [];
    if (this.prefilter && !this.prefilter.test(visible.text))
      return mergeOverlaps(findKnownSecrets(visible, knownSecrets));
    for (const pattern of this.standalone) found.push(...matchAll(visible, pattern));
    for (const pattern of this.anchored) {
      const anchors = found.filter((finding) => finding.kind === pattern.near?.kind);
      const window = pattern.near?.window ?? 0;
      found.push(
        ...matchAll(visible, pattern).filter((finding) =>
          anchors.some(
            (anchor) => finding.start < anchor.end + window && finding.end > anchor.start - window,
          ),
        ),
      );
    }
    found.push(...findKnownSecrets(visible, knownSecrets));
    return mergeOverlaps(found);
  }

  /** Replaces each finding with `[REDACTED:<kind>]`. */
  redact(text: string, knownSecrets: readonly string[] = []): { text: string; findings: LeakFinding[] } {
    const findings = this.scan(text, knownSecrets);
    let result = '';
    let last = 0;
    for (const finding of findings) {
      result += `${text.slice(last, finding.start)}[REDACTED:${finding.kind}]`;
      last = finding.end;
    }
    return { text: result + text.slice(last), findings };
  }
}

function matchAll(visible: VisibleText, pattern: LeakPattern): LeakFinding[] {
  const findings: LeakFinding[] = [];
  for (const match of visible.text.matchAll(pattern.regex)) {
    const [start, end] = match.indices?.groups?.secret ??
      match.indices?.[0] ?? [match.index, match.index + match[0].length];
    if (end > start) findings.push({ kind: pattern.kind, ...originalSpan(visible, start, end) });
  }
  return findings;
}

function findKnownSecrets(visible: VisibleText, knownSecrets: readonly string[]): LeakFinding[] {
  const findings: LeakFinding[] = [];
  const forms = new Set<string>();
  for (const secret of knownSecrets) {
    const plain = toVisibleText(secret).text;
    if (plain.length < MIN_KNOWN_SECRET_LENGTH) continue;
    // The URL-encoded form is how a secret looks once it has been put into a query string.
    forms.add(plain).add(encodeURIComponent(plain));
  }
  for (const form of forms) {
    for (let at = visible.text.indexOf(form); at !== -1; at = visible.text.indexOf(form, at + 1)) {
      findings.push({ kind: 'known_secret', ...originalSpan(visible, at, at + form.length) });
    }
  }
  return findings;
}

function mergeOverlaps(findings: LeakFinding[]): LeakFinding[] {
  const sorted = [...findings].sort((left, right) => left.start - right.start || right.end - left.end);
  const merged: LeakFinding[] = [];
  for (const finding of sorted) {
    const previous = merged.at(-1);
    if (previous !== undefined && finding.start < previous.end)
      previous.end = Math.max(previous.end, finding.end);
    else merged.push({ ...finding });
  }
  return merged;
}
