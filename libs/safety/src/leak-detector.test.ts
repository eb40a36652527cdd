import { describe, expect, it } from '@jest/globals';
import { LeakDetector } from './leak-detector.js';

// Fabricated keys in each format (the AWS pair is AWS's own documentation example).
const KEYS: readonly [string, string][] = [
  ['openai_api_key', 'sk-abcdEFGH1234ijklMNOP5678qrstUVWX9012abcdEFGH'],
  ['openai_api_key', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z-_Ab3dEf6hIj9kLm2nOp5qRs8t'],
  ['anthropic_api_key', 'sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9Xc2Vb5Nm8-Qw1Er4TyAA'],
  ['aws_access_key_id', 'AKIAIOSFODNN7EXAMPLE'],
  ['aws_access_key_id', 'ASIAY34FZKBOKMUTVV7A'],
  ['github_token', 'ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo'],
  ['github_token', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github_token', 'ghu_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github_token', 'ghs_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['github_token', 'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D'],
  [
    'github_token',
    'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789abcdefghijklmno',
  ],
  ['stripe_secret_key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
  ['stripe_secret_key', 'rk_live_51H8nTmKz0aBcDeFgHiJkLmNo'],
  ['stripe_secret_key', 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'],
  ['slack_token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
  ['slack_token', 'xoxp-123456789012-123456789012-123456789012-0123456789abcdef0123456789abcdef'],
  ['slack_token', 'xoxa-2-123456789012-123456789012-abcdef0123456789'],
  ['slack_webhook', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['google_api_key', 'AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tUvW'],
  [
    'private_key',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1b2c3d4e5f6\nq7r8s9t0u1v2w3x4y5z6==\n-----END RSA PRIVATE KEY-----',
  ],
  [
    'private_key',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----',
  ],
  ['private_key', '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHx\n-----END PRIVATE KEY-----'],
];

const INVISIBLES: readonly [string, string][] = [
  ['zero-width space', '\u200B'],
  ['zero-width non-joiner', '\u200C'],
  ['zero-width joiner', '\u200D'],
  ['word joiner', '\u2060'],
  ['BOM', '\uFEFF'],
  ['NUL', '\u0000'],
  ['soft hyphen', '\u00AD'],
];

const detector = new LeakDetector();

/** Hides a character every few characters of the key. */
function sprinkle(key: string, invisible: string): string {
  return [...key].map((char, index) => (index > 0 && index % 5 === 0 ? invisible + char : char)).join('');
}

describe('LeakDetector', () => {
  it.each(KEYS)('finds a planted %s and redacts exactly its span', (kind, key) => {
    const text = `config line before\nvalue = "${key}" and after`;
    const findings = detector.scan(text);
    expect(findings).toEqual([{ kind, start: text.indexOf(key), end: text.indexOf(key) + key.length }]);
    const redacted = detector.redact(text);
    expect(redacted.text).toBe(`config line before\nvalue = "[REDACTED:${kind}]" and after`);
  });

  describe.each(INVISIBLES)('with a %s inside the key', (_name, invisible) => {
    it.each(KEYS)('still finds %s and redacts the original span', (kind, key) => {
      const hidden = sprinkle(key, invisible);
      const text = `token: ${hidden} end`;
      const findings = detector.scan(text);
      expect(findings).toEqual([{ kind, start: 7, end: 7 + hidden.length }]);
      expect(detector.redact(text).text).toBe(`token: [REDACTED:${kind}] end`);
    });
  });

  it('finds an AWS secret key next to its access key id, and the labelled form alone', () => {
    const pair = 'AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    expect(detector.scan(pair).map((finding) => finding.kind)).toEqual([
      'aws_access_key_id',
      'aws_secret_access_key',
    ]);
    const labelled = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    expect(detector.redact(labelled).text).toBe('aws_secret_access_key = [REDACTED:aws_secret_access_key]');
    // The same 40 characters far from any access key id and without a label are left alone.
    expect(detector.scan(`${'x'.repeat(400)} wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`)).toEqual([]);
  });

  it('redacts only the token of an Authorization header', () => {
    expect(
      detector.redact('Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc_DEF-123').text,
    ).toBe('Authorization: Bearer [REDACTED:bearer_token]');
    expect(detector.redact('{"authorization": "Bearer abcdef123456"}').text).toBe(
      '{"authorization": "Bearer [REDACTED:bearer_token]"}',
    );
    expect(detector.redact('authorization: Basic dXNlcjpwYXNzd29yZA==').text).toBe(
      'authorization: Basic [REDACTED:basic_auth_header]',
    );
  });

  it('redacts the user and password of a basic-auth URL', () => {
    expect(detector.redact('clone https://admin:hunter22@db.example.com/repo.git').text).toBe(
      'clone https://[REDACTED:basic_auth_url]@db.example.com/repo.git',
    );
  });

  it('finds exact known secrets, plain, URL-encoded and with invisible characters', () => {
    const secret = 'correct horse/battery';
    const text = `a=${secret}; b=${encodeURIComponent(secret)}; c=correct\u200B horse/batt\uFEFFery`;
    const redacted = detector.redact(text, [secret]);
    expect(redacted.findings.map((finding) => finding.kind)).toEqual([
      'known_secret',
      'known_secret',
      'known_secret',
    ]);
    expect(redacted.text).toBe(
      'a=[REDACTED:known_secret]; b=[REDACTED:known_secret]; c=[REDACTED:known_secret]',
    );
  });

  it('ignores known secrets too short to redact safely', () => {
    expect(detector.scan('a b c abc', ['abc', ''])).toEqual([]);
  });

  it('merges overlapping findings into one span', () => {
    const key = 'sk-abcdEFGH1234ijklMNOP5678qrstUVWX9012abcdEFGH';
    const findings = detector.scan(`x ${key} y`, [key.slice(3, 20)]);
    expect(findings).toEqual([{ kind: 'openai_api_key', start: 2, end: 2 + key.length }]);
  });

  it('finds several secrets in order', () => {
    const text = 'one sk_live_4eC39HqLyjWDarjtT1zdp7dc two ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo three';
    expect(detector.redact(text).text).toBe(
      'one [REDACTED:stripe_secret_key] two [REDACTED:github_token] three',
    );
  });

  it.each([
    ['a git commit hash', 'commit e3b0c44298fc1c149afbf4c8996fb92427ae41e4 (HEAD -> main)'],
    ['an upper-case SHA-1 next to prose', 'SHA1 E3B0C44298FC1C149AFBF4C8996FB92427AE41E4 AKIA is a prefix'],
    ['a sha256', 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e464b934ca495991b7852b855'],
    ['a UUID', 'id 123e4567-e89b-12d3-a456-426614174000 and 550E8400-E29B-41D4-A716-446655440000'],
    ['base64 of short words', 'aGVsbG8gd29ybGQ= dGFsb24= c2VjcmV0'],
    ['ordinary code', 'const sk = "sk-learn"; task-1234; import sklearn; skip_test_cases_in_ci'],
    ['prose with sk-', 'the sk-this-is-not-a-real-key-at-all example'],
    [
      'URLs without credentials',
      'https://example.com/a?b=c user@example.com http://example.com:8080/x mailto:a@b.c',
    ],
    ['a public-key block', '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----'],
    ['an Authorization header without a token', 'Set the Authorization header to Bearer and a token.'],
  ])('does not flag %s', (_name, text) => {
    expect(detector.scan(text)).toEqual([]);
  });
});

describe('LeakDetector on adversarial input', () => {
  it.each([
    ['dotted words', 'a.'.repeat(300_000)],
    ['one long token', 'x'.repeat(600_000)],
    ['repeated prefixes', 'sk-'.repeat(200_000)],
    ['repeated PEM headers', '-----BEGIN PRIVATE KEY-----\n'.repeat(20_000)],
    ['repeated header names', 'authorization: bearer '.repeat(30_000)],
    ['scheme-like runs', 'a+b.c-d://'.repeat(60_000)],
    ['invisible characters', 'a\u200B'.repeat(300_000)],
  ])('scans %s in linear time', (_name, text) => {
    const started = performance.now();
    detector.scan(text, ['a-known-secret']);
    // A hang or a quadratic blow-up takes minutes on these sizes; the bound is loose for loaded machines.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
