/**
 * One recognisable secret format. `regex` must carry the `g` and `d` flags; when it has a named group
 * `secret`, only that group is the secret (e.g. the token after `Authorization: Bearer`). A pattern with
 * `near` only counts within `window` characters of a finding of that kind (an AWS secret key is 40
 * characters that look like many other things; next to an access key id it is a secret).
 */
export interface LeakPattern {
  kind: string;
  regex: RegExp;
  near?: { kind: string; window: number };
}

// Lookbehinds stand in for \b because keys contain `-` and `_`, which \b treats as boundaries.
export const LEAK_PATTERNS: readonly LeakPattern[] = [
  {
    kind: 'private_key',
    regex:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/dg,
  },
  { kind: 'anthropic_api_key', regex: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}/dg },
  // A digit somewhere in the token keeps prose such as `sk-this-is-not-a-key-at-all` out.
  {
    kind: 'openai_api_key',
    regex: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}/dg,
  },
  {
    kind: 'aws_access_key_id',
    regex:
      /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])/dg,
  },
  {
    kind: 'aws_secret_access_key',
    regex:
      /(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dgi,
  },
  {
    kind: 'aws_secret_access_key',
    regex:
      /(?<![A-Za-z0-9/+])(?=[A-Za-z0-9/+]*[a-z])(?=[A-Za-z0-9/+]*[A-Z])(?=[A-Za-z0-9/+]*[0-9])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/dg,
    near: { kind: 'aws_access_key_id', window: 300 },
  },
  { kind: 'github_token', regex: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])/dg },
  { kind: 'github_token', regex: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}/dg },
  { kind: 'stripe_secret_key', regex: /(?<![A-Za-z0-9_])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/dg },
  { kind: 'slack_token', regex: /(?<![A-Za-z0-9-])xox[abposr]-[A-Za-z0-9-]{10,}/dg },
  {
    kind: 'slack_webhook',
    regex: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,}/dg,
  },
  { kind: 'google_api_key', regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/dg },
  {
    kind: 'bearer_token',
    regex: /\bauthorization["']?\s*[:=]\s*["']?(?:bearer|token)\s+(?<secret>[A-Za-z0-9._~+/-]{8,}=*)/dgi,
  },
  {
    kind: 'basic_auth_header',
    regex: /\bauthorization["']?\s*[:=]\s*["']?basic\s+(?<secret>[A-Za-z0-9+/]{6,}=*)/dgi,
  },
  {
    kind: 'basic_auth_url',
    regex: /\b[a-z][a-z0-9+.-]{0,30}:\/\/(?<secret>[^\s:/?#@"'<>]+:[^\s/?#@"'<>]+)@/dgi,
  },
];

/**
 * A cheap superset test for {@link LEAK_PATTERNS}: every default pattern contains one of these literals,
 * so text without any of them cannot hold a key and the per-pattern scans are skipped. Keep it in step
 * when a pattern is added.
 */
export const LEAK_PATTERN_PREFILTER =
  /-----BEGIN|sk-|(?:sk|rk)_|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|gh[pousr]_|github_pat_|xox[abposr]-|hooks\.slack\.com|AIza|authorization|secret_?access_?key|:\/\//i;
