// Skill selection: quality on the labelled set and speed at 500, 2,000 and 10,000 skills.
//
// Quality: the 60 target skills of libs/skills/test/fixtures/selection among generated distractors
// (bench/support/skill-corpus.mjs), 48 labelled messages in English and Chinese; P@1 and P@3 of the hybrid
// selector (BM25 + boosts) against the baseline rule Talon used before, rebuilt here from its parts: keyword
// points by substring and exact tags, and the TF-IDF tier only when no skill had a keyword or tag hit.
// Speed: p50/p99 of `select` per message (on-CPU: wall minus run-queue wait from /proc/self/schedstat), index
// build time, and the token size of the model-mode index at 2,000 skills. Target: P@1 ≥ 0.8, P@3 ≥ 0.9,
// p99 < 2 ms at 10,000 skills. Uses the BUILT library: run `npx tsc -b libs/skills` first. The last line
// printed is one JSON object with the figures.
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildSkillIndexPrompt,
  foldText,
  parseSkillText,
  SkillSelector,
  TfidfIndex,
} from '../libs/skills/dist/index.js';
import { generateDistractors } from './support/skill-corpus.mjs';

const SIZES = [500, 2_000, 10_000];
const RUNS = Number(process.env.BENCH_RUNS ?? 2000);
const WARMUP = 200;
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, '..', 'libs', 'skills', 'test', 'fixtures', 'selection');
const readJson = (file) => JSON.parse(readFileSync(join(fixtures, file), 'utf8'));

function load(entries) {
  return entries.map(({ folder, text }) => {
    const result = parseSkillText(text, { path: `/corpus/${folder}/SKILL.md` });
    if (!result.ok) throw new Error(`${folder}: ${result.rejection.reason} ${result.rejection.message}`);
    return {
      ...result.skill,
      trust: 'TRUSTED',
      source: 'workspace',
      resources: { scripts: [], references: [], assets: [] },
      gating: { eligible: true, reasons: [] },
    };
  });
}

const targets = load(readJson('targets.json'));
const labels = readJson('labels.json');
const distractors = load(generateDistractors(SIZES.at(-1) - targets.length));

/** The rule before the hybrid selector: keyword/tag tier, and TF-IDF only when that tier found nothing. */
function baselineRanker(skills) {
  const tfidf = new TfidfIndex(
    skills.map((skill, id) => ({
      id,
      text: `${skill.name.replace(/-/g, ' ')} ${skill.description} ${skill.activation.tags.join(' ')}`,
    })),
  );
  return (message) => {
    const folded = foldText(message);
    const words = new Set(folded.match(/[\p{L}\p{N}]+/gu) ?? []);
    const scored = [];
    skills.forEach((skill, id) => {
      let points = 0;
      for (const keyword of skill.activation.keywords)
        if (folded.includes(keyword)) points += words.has(keyword) ? 10 : 5;
      for (const tag of skill.activation.tags) if (words.has(tag)) points += 3;
      if (points > 0) scored.push({ id, points });
    });
    if (scored.length > 0)
      return scored.sort((a, b) => b.points - a.points || a.id - b.id).map(({ id }) => skills[id].name);
    return tfidf.query(message, 0.25, 10).map((hit) => skills[hit.id].name);
  };
}

function precision(rank) {
  let top1 = 0;
  let top3 = 0;
  for (const { message, expected } of labels) {
    const ranked = rank(message);
    if (expected.includes(ranked[0])) top1++;
    if (ranked.slice(0, 3).some((name) => expected.includes(name))) top3++;
  }
  const round = (value) => Math.round(value * 1000) / 1000;
  return { p1: round(top1 / labels.length), p3: round(top3 / labels.length) };
}

const schedstatFd = existsSync('/proc/self/schedstat') ? openSync('/proc/self/schedstat', 'r') : undefined;
const schedBuffer = Buffer.alloc(128);
function runQueueWaitNs() {
  if (schedstatFd === undefined) return 0;
  const length = readSync(schedstatFd, schedBuffer, 0, schedBuffer.length, 0);
  return Number(schedBuffer.toString('latin1', 0, length).split(' ')[1]);
}
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const round = (value) => Math.round(value * 1000) / 1000;

const EXTRA_MESSAGES = [
  'What a lovely afternoon, nothing technical here at all.',
  `Stack trace:\n${Array.from({ length: 30 }, (_, i) => `  at handler${i} (src/module${i}.ts:${i + 10}:5)`).join('\n')}\nwhy does the kafka consumer crash?`,
  `${'so yesterday we went back and forth about what happened during the night and why nobody noticed. '.repeat(8)}Can you help me write the postgres backup runbook?`,
];
const MESSAGES = [...labels.map((label) => label.message), ...EXTRA_MESSAGES];

const rows = [];
for (const size of SIZES) {
  const skills = [...targets, ...distractors.slice(0, size - targets.length)];
  const buildStart = performance.now();
  const selector = new SkillSelector(skills);
  const buildMs = performance.now() - buildStart;
  const ranked = (message) =>
    selector
      .select(message)
      .considered.filter((entry) => !['vetoed', 'gated_out', 'below_threshold'].includes(entry.outcome))
      .map((entry) => entry.name);
  const quality = precision(ranked);
  const baseline = precision(baselineRanker(skills));
  for (let i = 0; i < WARMUP; i++) selector.select(MESSAGES[i % MESSAGES.length]);
  const onCpu = [];
  const wall = [];
  for (let i = 0; i < RUNS; i++) {
    const message = MESSAGES[i % MESSAGES.length];
    const waitBefore = runQueueWaitNs();
    const started = performance.now();
    selector.select(message);
    const elapsed = performance.now() - started;
    wall.push(elapsed);
    onCpu.push(Math.max(0, elapsed - (runQueueWaitNs() - waitBefore) / 1e6));
  }
  onCpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  const indexStart = performance.now();
  const index = buildSkillIndexPrompt(selector.rank(labels[0].message), 1500);
  const indexMs = performance.now() - indexStart;
  const fullIndex = buildSkillIndexPrompt(selector.rank(labels[0].message), Number.MAX_SAFE_INTEGER);
  rows.push({
    skills: size,
    buildMs: round(buildMs),
    p1: quality.p1,
    p3: quality.p3,
    baselineP1: baseline.p1,
    baselineP3: baseline.p3,
    p50: round(percentile(onCpu, 50)),
    p99: round(percentile(onCpu, 99)),
    wallP99: round(percentile(wall, 99)),
    indexMs: round(indexMs),
    indexTokens: index.tokens,
    indexListed: index.listed.length,
    fullIndexTokens: fullIndex.tokens,
  });
}
if (schedstatFd !== undefined) closeSync(schedstatFd);

console.log(
  'skills  build ms   P@1   P@3  base P@1  base P@3  p50 ms  p99 ms  wall p99  index ms  index tokens (listed)  unbounded index tokens',
);
for (const row of rows)
  console.log(
    `${String(row.skills).padStart(6)} ${String(row.buildMs).padStart(9)} ${String(row.p1).padStart(5)} ${String(row.p3).padStart(5)} ${String(row.baselineP1).padStart(9)} ${String(row.baselineP3).padStart(9)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.wallP99).padStart(9)} ${String(row.indexMs).padStart(9)} ${String(`${row.indexTokens} (${row.indexListed})`).padStart(22)} ${String(row.fullIndexTokens).padStart(23)}`,
  );
const at = (size) => rows.find((row) => row.skills === size);
console.log(
  JSON.stringify({
    benchmark: 'skill-select',
    labelledMessages: labels.length,
    runsPerSize: RUNS,
    measure: 'p50/p99 on-CPU ms per select (wall minus run-queue wait); P@k on the labelled set',
    sizes: Object.fromEntries(rows.map((row) => [row.skills, row])),
    modelIndexTokensAt2000: at(2_000).indexTokens,
    unboundedIndexTokensAt2000: at(2_000).fullIndexTokens,
    targets: { p1: 0.8, p3: 0.9, p99MsAt10k: 2 },
    meetsTargets: at(500).p1 >= 0.8 && at(500).p3 >= 0.9 && at(10_000).p99 < 2,
  }),
);
