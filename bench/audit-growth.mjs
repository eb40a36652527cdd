// What an audit row costs on PGlite once the table is large. The audit log writes busy periods as COPY
// statements of many rows; this times such statements (64 rows, as AuditLog builds them) on an empty table
// and again after it holds BENCH_AUDIT_ROWS rows (default 500,000: a few days of a busy orchestrator), for
// two index layouts in the same run:
//   current: time-ordered record ids (UUIDv7) and the chain position (`chain_seq`) as the key, both
//     appended to, and `data` as JSON text (migration 0013);
//   previous: random record ids (UUIDv4), a bigserial key, the fork guard a unique index on `prev_hash` (a
//     random hash) and `data` as jsonb, as before migration 0011: every insert lands on random pages of two
//     indexes.
// Prints the CPU per row (this process: PGlite runs in it) and each layout's grown/empty ratio.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './support/processes.mjs';
import { loadAtStart, printTable } from './support/stats.mjs';

const FILL = Number(process.env.BENCH_AUDIT_ROWS ?? 500_000);
const STATEMENTS = 60;
const BATCH = 64;
const ROUNDS = 3;
const { openDatabase, BinaryCopyRows } = await import(join(REPO_ROOT, 'libs/persistence/dist/index.js'));
const { timeOrderedUuid } = await import(join(REPO_ROOT, 'libs/audit/dist/index.js'));

const LOAD_AT_START = loadAtStart('audit-growth');
const COLUMNS = [
  'at',
  'kind',
  'actor',
  'session_id',
  'call_id',
  'tool',
  'args_hash',
  'outcome',
  'duration_ms',
  'data',
  'prev_hash',
  'hash',
  'chain_seq',
  'record_id',
];
const LAYOUTS = {
  current: { recordId: () => timeOrderedUuid(), recordIdSql: 'uuidv7()', jsonb: false },
  previous: {
    recordId: randomUUID,
    recordIdSql: 'gen_random_uuid()',
    jsonb: true,
    // The table before migration 0011 (the position stays as a plain column: both layouts write it).
    ddl: `ALTER TABLE audit_event DROP CONSTRAINT audit_event_pkey;
          ALTER TABLE audit_event ADD COLUMN id BIGSERIAL PRIMARY KEY;
          CREATE UNIQUE INDEX audit_event_prev_hash_key ON audit_event(prev_hash);
          ALTER TABLE audit_event ALTER COLUMN data DROP DEFAULT;
          ALTER TABLE audit_event ALTER COLUMN data TYPE jsonb USING data::jsonb`,
  },
};

const DATA = '{"worker":"tool-worker-1","bytes":17}';
const scratch = mkdtempSync(join(tmpdir(), 'talon-bench-audit-growth-'));
const figures = {};
for (const [name, layout] of Object.entries(LAYOUTS)) {
  const db = await openDatabase({ kind: 'pglite', dataDir: join(scratch, name) });
  if (layout.ddl) await db.executeText(layout.ddl);
  let prevHash = '0'.repeat(64);
  let seq = 0;
  // Binary COPY input, as AuditLog builds it.
  const batchInput = () => {
    const rows = new BinaryCopyRows();
    for (let index = 0; index < BATCH; index++) {
      const hash = createHash('sha256').update(`${prevHash}${seq}`).digest('hex');
      rows
        .row(COLUMNS.length)
        .timestamptz(Date.now())
        .text('tool.call')
        .text('operator')
        .uuid(null)
        .text(randomUUID())
        .text('echo')
        .text(createHash('sha256').update(String(seq)).digest('hex'))
        .text('ok')
        .int4(1);
      if (layout.jsonb) rows.jsonb(DATA);
      else rows.text(DATA);
      rows.text(prevHash).text(hash).int8(BigInt(++seq)).uuid(layout.recordId());
      prevHash = hash;
    }
    return rows.finish();
  };
  const measure = async () => {
    const samples = [];
    for (let round = 0; round < ROUNDS; round++) {
      const inputs = Array.from({ length: STATEMENTS }, batchInput); // built outside the timed part
      const before = process.cpuUsage();
      for (const input of inputs) await db.copyRows('audit_event', COLUMNS, input);
      const used = process.cpuUsage(before);
      samples.push((used.user + used.system) / (STATEMENTS * BATCH));
    }
    return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  };
  await measure(); // warm-up
  const empty = await measure();
  // The fill: rows like the chain's, made by PostgreSQL itself in statements of 50,000.
  const started = performance.now();
  for (let done = 0; done < FILL; done += 50_000) {
    const rows = Math.min(50_000, FILL - done);
    await db.executeText(
      `INSERT INTO audit_event (kind, actor, call_id, tool, args_hash, outcome, duration_ms, data, prev_hash, hash, chain_seq, record_id)
       SELECT 'tool.call', 'operator', gen_random_uuid()::text, 'echo', md5(g::text) || md5(g::text), 'ok', 1,
              '{"worker":"tool-worker-1","bytes":17}', md5(random()::text) || md5(random()::text),
              md5(random()::text) || md5(random()::text), ${seq} + g, ${layout.recordIdSql}
       FROM generate_series(1, ${rows}) AS g`,
    );
    seq += rows;
  }
  const fillSeconds = (performance.now() - started) / 1000;
  const grown = await measure();
  const [{ size }] = await db.query(
    "SELECT pg_size_pretty(pg_total_relation_size('audit_event')) AS size",
    [],
  );
  figures[name] = {
    emptyCpuUsPerRow: round(empty),
    grownCpuUsPerRow: round(grown),
    ratio: ratio(grown, empty),
  };
  figures[name].tableSize = size;
  figures[name].fillSeconds = round(fillSeconds);
  await db.close();
}
rmSync(scratch, { recursive: true, force: true });

printTable(
  Object.entries(figures).map(([name, figure]) => ({
    layout: name,
    'empty µs/row': figure.emptyCpuUsPerRow,
    [`${FILL} rows µs/row`]: figure.grownCpuUsPerRow,
    'grown/empty': figure.ratio,
    'table size': figure.tableSize,
  })),
);
console.log(
  JSON.stringify({
    benchmark: 'audit-growth',
    loadAverageAtStart: LOAD_AT_START,
    loadAverageAtEnd: loadavg().map(round),
    rowsPerStatement: BATCH,
    filledRows: FILL,
    figures,
    currentVsPreviousGrown: ratio(figures.current.grownCpuUsPerRow, figures.previous.grownCpuUsPerRow),
  }),
);

function round(value) {
  return Math.round(value * 10) / 10;
}

function ratio(a, b) {
  return Math.round((a / b) * 100) / 100;
}
