import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { EgressScanner } from './egress-scanner.js';
import { SecretLeakError } from './errors/secret-leak-error.js';
import type { OutgoingRequest } from './outgoing-request-views.js';

const GRANTED = 'granted-Value-7c1e9f';

// Fabricated keys, one per planted format (the AWS pair is AWS's own documentation example).
const PLANTED: readonly [string, string, readonly string[]][] = [
  ['openai_api_key', 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', []],
  ['anthropic_api_key', 'sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3Jk6Lz9Xc2Vb5', []],
  ['aws_access_key_id', 'AKIAIOSFODNN7EXAMPLE', []],
  ['aws_secret_access_key', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', []],
  ['github_token', 'ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo', []],
  ['github_token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', []],
  ['stripe_secret_key', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc', []],
  ['slack_token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOp', []],
  ['slack_webhook', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXX', []],
  ['google_api_key', 'AIzaSyA1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tUvW', []],
  ['private_key', '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIHx\n-----END PRIVATE KEY-----', []],
  ['bearer_token', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc123', []],
  ['known_secret', GRANTED, [GRANTED]],
];

const everyByte = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
const sprinkle = (text: string, invisible: string) =>
  [...text].map((char, index) => (index > 0 && index % 4 === 0 ? invisible + char : char)).join('');

/** How the key is written before it is put somewhere. */
const ENCODINGS: readonly [string, (key: string) => string][] = [
  ['plain', (key) => key],
  ['percent-encoded', (key) => encodeURIComponent(key)],
  ['every byte percent-encoded', everyByte],
  ['percent-encoded twice', (key) => encodeURIComponent(encodeURIComponent(key))],
  ['percent-encoded three times', (key) => encodeURIComponent(encodeURIComponent(everyByte(key)))],
  ['base64', (key) => Buffer.from(key).toString('base64')],
  ['base64url', (key) => Buffer.from(key).toString('base64url')],
  ['hex', (key) => Buffer.from(key).toString('hex')],
  ['zero-width spaces inside', (key) => sprinkle(key, '\u200B')],
  ['bidi overrides inside', (key) => sprinkle(key, '\u202E')],
  ['soft hyphens and BOMs inside', (key) => sprinkle(key, '\u00AD\uFEFF')],
];

/** Where the written key goes in a request. */
const POSITIONS: readonly [string, (written: string) => OutgoingRequest][] = [
  ['query value', (written) => ({ url: `https://api.example/search?q=${written}&page=2` })],
  ['query value (URL parser encoding)', (written) => ({ url: queryUrl(written) })],
  ['path', (written) => ({ url: `https://api.example/v1/items/${encodeSlashFree(written)}?page=2` })],
  ['userinfo', (written) => ({ url: `https://user:${encodeURIComponent(written)}@api.example/` })],
  [
    'header',
    (written) => ({ url: 'https://api.example/', headers: { 'x-note': written.replace(/\n/g, ' ') } }),
  ],
  [
    'JSON body',
    (written) => ({
      url: 'https://api.example/',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: { deep: [written] } }),
    }),
  ],
  [
    'form body',
    (written) => ({
      url: 'https://api.example/',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `a=1&note=${encodeURIComponent(written).replaceAll('%20', '+')}`,
    }),
  ],
  [
    'multipart text part',
    (written) => ({
      url: 'https://api.example/',
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
      body: `--XyZ\r\nContent-Disposition: form-data; name="note"\r\n\r\n${written}\r\n--XyZ--\r\n`,
    }),
  ],
  ['text body', (written) => ({ url: 'https://api.example/', method: 'PUT', body: `hello ${written} bye` })],
];

function queryUrl(written: string): string {
  const url = new URL('https://api.example/search');
  url.searchParams.set('q', written);
  return url.href;
}

function encodeSlashFree(written: string): string {
  return written.replace(/[/\n ]/g, (char) => encodeURIComponent(char));
}

const scanner = new EgressScanner();

describe('EgressScanner: planted keys in every position and encoding', () => {
  const cases = PLANTED.flatMap(([kind, key, known]) =>
    POSITIONS.map(([position, place]) => [kind, position, key, known, place] as const),
  );
  it.each(cases)('finds %s in a %s, however it is encoded', (kind, _position, key, known, place) => {
    const missed = ENCODINGS.filter(
      ([, encode]) =>
        !scanner.scan(place(encode(key)), { knownSecrets: known }).some((finding) => finding.kind === kind),
    ).map(([name]) => name);
    expect(missed).toEqual([]);
  });

  it('finds a JSON body whose key is written with \\u escapes', () => {
    const escaped = [...'sk-ant-api03-Xy7Qw2Er5Ty8Ui1Op4As7Df0Gh3']
      .map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
      .join('');
    const request = {
      url: 'https://api.example/',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: `{"note":"${escaped}"}`,
    };
    expect(scanner.scan(request)).toEqual([{ kind: 'anthropic_api_key', part: 'body' }]);
  });

  it('finds a key inside a Basic authorization header', () => {
    const basic = Buffer.from('user:sk_live_4eC39HqLyjWDarjtT1zdp7dc').toString('base64');
    const kinds = scanner
      .scan({ url: 'https://api.example/', headers: { authorization: `Basic ${basic}` } })
      .map((finding) => finding.kind);
    expect(kinds).toEqual(expect.arrayContaining(['basic_auth_header', 'stripe_secret_key']));
  });

  it('finds a granted secret as bytes of a binary body', () => {
    const body = new Uint8Array([0, 1, 2, ...Buffer.from(GRANTED), 3]);
    expect(scanner.scan({ url: 'https://api.example/', body }, { knownSecrets: [GRANTED] })).toEqual([
      { kind: 'known_secret', part: 'body' },
    ]);
  });

  it('refuses with SECRET_LEAK naming kinds and parts, never the value', () => {
    let caught: unknown;
    try {
      scanner.enforce(
        { url: `https://api.example/?k=${encodeURIComponent(GRANTED)}` },
        { knownSecrets: [GRANTED] },
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretLeakError);
    expect((caught as SecretLeakError).details).toEqual({
      destination: 'egress to api.example (url)',
      kinds: ['known_secret'],
    });
    expect(JSON.stringify((caught as SecretLeakError).details)).not.toContain(GRANTED);
  });
});

describe('EgressScanner: expected values', () => {
  it('lets a request carry its own credential and still finds anything else', () => {
    const token = 'ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D';
    const refresh = {
      url: 'https://auth.example/token',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      body: `grant_type=refresh_token&refresh_token=${token}`,
    };
    expect(scanner.scan(refresh, { expectedValues: [token] })).toEqual([]);
    expect(
      scanner.scan(
        { ...refresh, body: `${refresh.body}&x=AKIAIOSFODNN7EXAMPLE` },
        { expectedValues: [token] },
      ),
    ).toEqual([{ kind: 'aws_access_key_id', part: 'body' }]);
  });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Ordinary traffic: none of it may be refused.
const BENIGN: readonly [string, OutgoingRequest][] = [
  [
    'commit URL',
    { url: 'https://github.com/nodejs/node/commit/3f1a9c4e2b7d8a6f5e4c3b2a1908f7e6d5c4b3a2?diff=split' },
  ],
  ['UUID path', { url: 'https://api.example/v1/sessions/7c9e6679-7425-40de-944b-e07fc1f90ae7/messages' }],
  ['sha256 query', { url: `https://registry.example/blobs?digest=sha256:${sha256('talon')}` }],
  ['search query', { url: 'https://duckduckgo.com/?q=how+to+rotate+an+sk-+key%3F&ia=web' }],
  ['percent-encoded prose', { url: `https://example.org/wiki/${encodeURIComponent('Größe 50% – ünïcode')}` }],
  [
    'prose about key prefixes',
    {
      url: 'https://api.example/notes',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        text:
          'OpenAI keys start with sk- and Anthropic ones with sk-ant-; AWS access key ids begin with AKIA, ' +
          'GitHub tokens with ghp_ or github_pat_, Slack tokens with xoxb-. Never paste them here. ' +
          'The Authorization header carries a bearer token.',
      }),
    },
  ],
  [
    'hashes and ids in JSON',
    {
      url: 'https://api.example/builds',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        commit: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
        tree: 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
        digest: sha256('artifact'),
        id: '123e4567-e89b-12d3-a456-426614174000',
        request: 'req_8f14e45fceea167a5a36dedd4bea2543',
      }),
    },
  ],
  [
    'base64 of binary data',
    {
      url: 'https://api.example/upload',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        image: Buffer.concat(
          Array.from({ length: 32 }, (_, index) => Buffer.from(sha256(String(index)), 'hex')),
        ).toString('base64'),
      }),
    },
  ],
  [
    'form with ordinary fields',
    {
      url: 'https://forms.example/submit',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=Ada+Lovelace&email=ada%40example.org&message=Hello%2C+world%21+%F0%9F%91%8B',
    },
  ],
  [
    'ordinary headers',
    {
      url: 'https://api.example/',
      headers: {
        accept: 'application/json',
        'user-agent': 'Talon/0.1 (+https://talon.example)',
        'if-none-match': `"${sha256('etag').slice(0, 32)}"`,
        'x-request-id': '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      },
    },
  ],
  [
    'multipart with a binary part',
    {
      url: 'https://api.example/upload',
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      body: `--b0\r\nContent-Disposition: form-data; name="title"\r\n\r\nRelease notes for v2.3.1\r\n--b0\r\nContent-Type: application/octet-stream\r\n\r\n${Buffer.from(sha256('x'), 'hex').toString('latin1')}\r\n--b0--\r\n`,
    },
  ],
];

describe('EgressScanner: ordinary requests pass', () => {
  it.each(BENIGN)('passes %s', (_name, request) => {
    expect(scanner.scan(request, { knownSecrets: [GRANTED] })).toEqual([]);
  });
});
