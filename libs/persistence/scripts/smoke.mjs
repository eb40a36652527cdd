#!/usr/bin/env node
// Proves the built library (dist/) runs under plain Node ESM: opens a PGlite database through the public
// entry (in memory, or the directory given as the first argument), which migrates it, then writes and reads
// a session with a message. Prints one JSON line with the time open+migrate took.
//   node libs/persistence/scripts/smoke.mjs [pglite-data-dir]
import { openDatabase } from '../dist/index.js';

const started = performance.now();
const db = await openDatabase({ kind: 'pglite', dataDir: process.argv[2] ?? 'memory://' });
const openMs = Math.round(performance.now() - started);
try {
  const session = await db.prisma.session.create({
    data: { title: 'smoke', messages: { create: [{ seq: 1, role: 'user', content: { text: 'hello' } }] } },
    include: { messages: true },
  });
  const back = await db.prisma.session.findUniqueOrThrow({
    where: { id: session.id },
    include: { messages: true },
  });
  if (back.messages[0]?.content?.text !== 'hello') throw new Error('round trip lost the message');
  console.log(
    JSON.stringify({
      ok: true,
      kind: db.kind,
      applied: db.migrations.applied,
      openMs,
      totalMs: Math.round(performance.now() - started),
    }),
  );
} finally {
  await db.close();
}
