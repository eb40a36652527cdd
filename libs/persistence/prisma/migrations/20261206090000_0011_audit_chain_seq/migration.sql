-- A row's position in the chain, given by its writer (the head's plus one): two rows at one position would
-- fork the chain, so it is unique. It takes over that guard from the unique index on prev_hash: a hash is
-- random, so every insert into that index lands on a random page, and on a table that has outgrown the
-- buffer pool each one reads and dirties a page of its own (on PGlite at 500,000 rows an insert cost about
-- twice what it did on an empty table, measured); positions only grow, so their index is appended to.
ALTER TABLE "audit_event" ADD COLUMN "chain_seq" BIGINT;
UPDATE "audit_event" AS row SET "chain_seq" = ordered.position
  FROM (SELECT "id", row_number() OVER (ORDER BY "id") AS position FROM "audit_event") AS ordered
  WHERE row."id" = ordered."id";
ALTER TABLE "audit_event" ALTER COLUMN "chain_seq" SET NOT NULL;
CREATE UNIQUE INDEX "audit_event_chain_seq_key" ON "audit_event"("chain_seq");
DROP INDEX "audit_event_prev_hash_key";
