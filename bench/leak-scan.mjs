// The leak scans on 1 KiB, 64 KiB and 1 MiB of ordinary traffic (prose, URLs with query strings, JSON
// with hashes and ids, a base64 blob; one granted secret to look for and none present), against a plain
// regex pass over the same text in the same run: every key-format regex once over the raw text, with no
// decoding and no invisible-character removal. Two scans are measured:
// - egress: EgressScanner.scan of a POST whose JSON body carries the text (URL, headers, body readings:
//   raw, percent-decoded, JSON strings, base64/hex runs decoded), as http/web_fetch/WASM/MCP requests are;
// - output: LeakDetector.redact of the text, as the tool pipeline runs on every result.
// Uses the BUILT library: run `npx tsc -b libs/safety` first. The last line printed is one JSON object.
import { EgressScanner, LEAK_PATTERNS, LeakDetector } from '../libs/safety/dist/index.js';
import { printTable, summarize } from './support/stats.mjs';

const SIZES = [
  ['1 KiB', 1024],
  ['64 KiB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
];
// Each side of each size runs for about this long (keep it short on the shared machine).
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 600);
const GRANTED = 'granted-Value-7c1e9f';

function mulberry32(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(7);
const hex = (length) => Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');
const WORDS =
  'the deploy of release candidate two failed because the cache key rotated before the migration ran and the token refresh hit a timeout so we rolled back and opened an incident for the payments team'.split(
    ' ',
  );
const LINES = [
  () => Array.from({ length: 14 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + '.',
  () => `see https://git.example.com/org/repo/commit/${hex(40)}?diff=split&w=1`,
  () => `{"id":"${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}","digest":"sha256:${hex(64)}"}`,
  () =>
    `GET /search?q=${encodeURIComponent('rotate key prefix sk- and AKIA safely')}&page=${Math.floor(random() * 9)}`,
  () => Buffer.from(hex(48), 'hex').toString('base64'),
];

function traffic(bytes) {
  const lines = [];
  let length = 0;
  while (length < bytes) {
    const line = LINES[Math.floor(random() * LINES.length)]();
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join('\n').slice(0, bytes);
}

function timeFor(fn) {
  for (let index = 0; index < 3; index += 1) fn();
  const samples = [];
  const until = performance.now() + BUDGET_MS;
  while (performance.now() < until || samples.length < 5) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return summarize(samples);
}

const egress = new EgressScanner();
const detector = new LeakDetector();
const rows = [];
const results = {};
for (const [label, bytes] of SIZES) {
  const text = traffic(bytes);
  const request = {
    url: 'https://api.example.com/v1/notes?source=bench',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ note: text }),
  };
  const findings = {
    egress: egress.scan(request, { knownSecrets: [GRANTED] }).length,
    output: detector.scan(text, [GRANTED]).length,
  };
  const plain = timeFor(() => {
    let count = 0;
    for (const pattern of LEAK_PATTERNS) for (const _ of text.matchAll(pattern.regex)) count += 1;
    return count;
  });
  const egressTime = timeFor(() => egress.scan(request, { knownSecrets: [GRANTED] }));
  const outputTime = timeFor(() => detector.redact(text, [GRANTED]));
  const ratio = (side) => Math.round((side.p50 / plain.p50) * 100) / 100;
  results[label] = {
    bytes,
    plainRegex: plain,
    egress: egressTime,
    output: outputTime,
    egressRatioP50: ratio(egressTime),
    outputRatioP50: ratio(outputTime),
    findings,
  };
  rows.push(
    { size: label, scan: 'plain regex pass', n: plain.n, p50ms: plain.p50, p99ms: plain.p99, ratio: 1 },
    {
      size: label,
      scan: 'egress (request views)',
      n: egressTime.n,
      p50ms: egressTime.p50,
      p99ms: egressTime.p99,
      ratio: ratio(egressTime),
    },
    {
      size: label,
      scan: 'output (redact)',
      n: outputTime.n,
      p50ms: outputTime.p50,
      p99ms: outputTime.p99,
      ratio: ratio(outputTime),
    },
  );
}
printTable(rows);
console.log(JSON.stringify({ benchmark: 'leak-scan', budgetMs: BUDGET_MS, sizes: results }));
