// Skill body rendering: a 4 KiB body with 10 parameters and loops, in Jinja (the sandbox of
// libs/skills/src/jinja-sandbox.ts) and in Mustache (the baseline, as bodies rendered before), timed in the
// same run through `renderSkillBody` (parameter fill with ajv + render). Target: Jinja p99 < 0.2 ms.
// Uses the BUILT library: run `npx tsc -b libs/skills` first. The last line printed is one JSON object.
//
// The two dialects are sampled alternately, so load on a shared machine hits both alike; `p50`/`p99` are on-CPU
// times (wall time minus this thread's run-queue wait from /proc/self/schedstat, as in skill-select), `wall`
// figures alongside. GC pauses stay included.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { renderSkillBody } from '../libs/skills/dist/index.js';
import { printTable, summarize } from './support/stats.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5000);

const parameters = [
  { name: 'pr_url', type: 'string', required: true },
  { name: 'repository', type: 'string', required: false, default: 'talon' },
  { name: 'author', type: 'string', required: false, default: 'someone' },
  {
    name: 'focus_areas',
    type: 'array',
    required: false,
    default: ['correctness', 'security', 'tests', 'docs'],
  },
  {
    name: 'files',
    type: 'array',
    required: false,
    default: Array.from({ length: 12 }, (_, i) => `src/module-${i}.ts`),
  },
  { name: 'max_findings', type: 'integer', required: false, default: 10 },
  { name: 'strict', type: 'boolean', required: false, default: true },
  { name: 'tone', type: 'string', required: false, default: 'direct', enum: ['direct', 'gentle'] },
  { name: 'labels', type: 'array', required: false, default: ['backend', 'api', 'breaking'] },
  { name: 'owner', type: 'object', required: false, default: { name: 'Ada', team: 'payments' } },
];
const values = { pr_url: 'https://git.example/talon/pull/42' };

const prose =
  'Read each hunk and ask whether it is correct for empty, huge, malformed and concurrent input, and whether it fails loudly. ';
const paragraph = (n) => prose.repeat(n);

const jinja = `# Review of {{ pr_url }} in {{ repository }} by {{ author }}
Focus on {{ focus_areas | join(", ") }}; at most {{ max_findings }} findings, {{ tone | upper }} tone.
Owner: {{ owner.name }} ({{ owner.team }}). Labels: {{ labels | join(" / ") }}.
${paragraph(16)}
## Files
{% for file in files %}
- {{ loop.index }}. {{ file }}{{ " (first)" if loop.first else "" }}
{% endfor %}
## Areas
{% for area in focus_areas %}
### {{ area | title }}
${paragraph(3)}
{% if strict %}Block the merge on any {{ area }} finding.{% else %}Comment only.{% endif %}

{% endfor %}
${paragraph(10)}
`;

const mustache = `# Review of {{pr_url}} in {{repository}} by {{author}}
Focus on {{#focus_areas}}{{.}}, {{/focus_areas}}; at most {{max_findings}} findings, {{tone}} tone.
Owner: {{owner.name}} ({{owner.team}}). Labels: {{#labels}}{{.}} / {{/labels}}.
${paragraph(16)}
## Files
{{#files}}
- {{.}}
{{/files}}
## Areas
{{#focus_areas}}
### {{.}}
${paragraph(3)}
{{#strict}}Block the merge on any {{.}} finding.{{/strict}}{{^strict}}Comment only.{{/strict}}

{{/focus_areas}}
${paragraph(10)}
`;

const schedstatFd = existsSync('/proc/self/schedstat') ? openSync('/proc/self/schedstat', 'r') : undefined;
const schedBuffer = Buffer.alloc(128);
function runQueueWaitNs() {
  if (schedstatFd === undefined) return 0;
  const length = readSync(schedstatFd, schedBuffer, 0, schedBuffer.length, 0);
  return Number(schedBuffer.toString('latin1', 0, length).split(' ')[1]);
}

const dialects = [
  ['mustache', mustache],
  ['jinja', jinja],
];
const samples = Object.fromEntries(dialects.map(([dialect]) => [dialect, { onCpu: [], wall: [] }]));
const outputs = {};
for (const [dialect, body] of dialects) {
  outputs[dialect] = renderSkillBody(body, parameters, values, 'bench', dialect);
  for (let i = 0; i < 500; i++) renderSkillBody(body, parameters, values, 'bench', dialect);
}
for (let i = 0; i < RUNS; i++) {
  for (const [dialect, body] of dialects) {
    const waitBefore = runQueueWaitNs();
    const started = performance.now();
    renderSkillBody(body, parameters, values, 'bench', dialect);
    const wall = performance.now() - started;
    const waited = (runQueueWaitNs() - waitBefore) / 1e6;
    samples[dialect].wall.push(wall);
    samples[dialect].onCpu.push(Math.max(0, wall - waited));
  }
}
if (schedstatFd !== undefined) closeSync(schedstatFd);

const rows = [];
const figures = {};
for (const [dialect, body] of dialects) {
  const onCpu = summarize(samples[dialect].onCpu);
  const wall = summarize(samples[dialect].wall);
  figures[dialect] = {
    ...onCpu,
    wallP50: wall.p50,
    wallP99: wall.p99,
    bodyBytes: Buffer.byteLength(body),
    outputBytes: Buffer.byteLength(outputs[dialect]),
  };
  rows.push({
    dialect,
    'body B': figures[dialect].bodyBytes,
    'output B': figures[dialect].outputBytes,
    'p50 ms': onCpu.p50,
    'p99 ms': onCpu.p99,
    'wall p50': wall.p50,
    'wall p99': wall.p99,
  });
}
printTable(rows);
const result = {
  benchmark: 'skill-render',
  runs: RUNS,
  parameters: parameters.length,
  measure: 'on-CPU ms per render (wall minus run-queue wait); wall figures alongside',
  loadAverage: (await import('node:os')).loadavg()[0],
  mustache: figures.mustache,
  jinja: figures.jinja,
  ratioP50: Math.round((figures.jinja.p50 / figures.mustache.p50) * 100) / 100,
  ratioP99: Math.round((figures.jinja.p99 / figures.mustache.p99) * 100) / 100,
  targetJinjaP99Ms: 0.2,
  meetsTarget: figures.jinja.p99 < 0.2,
};
console.log(JSON.stringify(result));
