-- Audit rows without a session (tool calls through the API, operator actions) no longer enter the index on
-- session_id: it is only ever searched for one session, and a full index took a NULL entry for every such
-- row (on PGlite about 1.5 µs of CPU a row, 7 % of an audit row's cost, measured). Prisma cannot declare a
-- partial index, so schema.prisma no longer lists it.
DROP INDEX "audit_event_session_id_idx";
CREATE INDEX "audit_event_session_id_idx" ON "audit_event"("session_id") WHERE "session_id" IS NOT NULL;
