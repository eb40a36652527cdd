#!/usr/bin/env node
// Prints the SQL that would bring a database built by the committed migrations to prisma/schema.prisma:
// the body of the next migration (review it, then save it as prisma/migrations/<timestamp>_<name>/migration.sql).
// Offline: Prisma's wasm schema engine replays the migrations on an in-memory PGlite shadow database.
//   node libs/persistence/scripts/migration-diff.mjs          (after the library's build)
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaSchemaEngine } from '../dist/prisma-schema-engine.js';

const host = await PGlite.create();
const engine = await PrismaSchemaEngine.open(new PrismaPGlite(host));
try {
  const sql = await engine.diffMigrationsToSchema();
  if (sql === null) {
    console.error('The committed migrations already match prisma/schema.prisma: no migration needed.');
  } else {
    process.stdout.write(sql);
    process.exitCode = 2;
  }
} finally {
  engine.close();
  await host.close();
}
