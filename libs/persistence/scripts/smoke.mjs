#!/usr/bin/env node
// Proves the built library (dist/) runs under plain Node ESM: opens an in-memory PGlite database through
// the public entry, which migrates it, then writes and reads a session with a message.
import { openDatabase } from '../dist/index.js';

const started = performance.now();
const db = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
try {
  const session = await db.prisma.session.create({
    data: { title: 'smoke', messages: { create: [{ seq: 1, role: 'user', content: { text: 'hello' } }] } },
    include: { messages: true },
  });
  const back = await db.prisma.session.findUniqueOrThrow({ where: { id: session.id }, include: { messages: true } });
  if (back.messages[0]?.content?.text !== 'hello') throw new Error('round trip lost the message');
  console.log(
    JSON.stringify({ ok: true, kind: db.kind, applied: db.migrations.applied, ms: Math.round(performance.now() - started) }),
  );
} finally {
  await db.close();
}
