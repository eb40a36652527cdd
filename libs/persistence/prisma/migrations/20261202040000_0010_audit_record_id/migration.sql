-- Audit records reach the table through a JetStream outbox, which may deliver one twice (a writer that
-- died between its commit and its acknowledgement): the id its author gave it is stored once. Rows
-- committed directly carry no id, and the index is partial so they do not pay for it (on PGlite a unique
-- index on every row measured about a third more CPU per inserted row).
ALTER TABLE "audit_event" ADD COLUMN "record_id" UUID;
CREATE UNIQUE INDEX "audit_event_record_id_key" ON "audit_event"("record_id") WHERE "record_id" IS NOT NULL;
