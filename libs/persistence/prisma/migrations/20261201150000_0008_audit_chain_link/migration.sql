-- Each row links to exactly one predecessor: two rows with one prev_hash would fork the chain. The audit
-- writer appends in one statement against the head it last wrote and relies on this index to refuse a
-- stale head instead of taking a lock and reading the head first.
CREATE UNIQUE INDEX "audit_event_prev_hash_key" ON "audit_event"("prev_hash");
