-- An orchestrator keeps readings of two tables while nothing has changed them: the session grants a gated
-- call reads, and the owner of a session an agent token names. PGlite counts its own writes; on PostgreSQL,
-- which several orchestrators write, every change of these tables is announced at its commit to every
-- orchestrator that listens (NotifiedEpoch). Statement triggers: one notice per statement, and a
-- transaction sends one per table however many statements it ran. A session's own updates (its message
-- counter, once a message) are not announced: only a new, deleted or re-owned session changes its owner.
CREATE FUNCTION talon_notify_table_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('talon_table_change', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

CREATE TRIGGER session_grant_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "session_grant"
  FOR EACH STATEMENT EXECUTE FUNCTION talon_notify_table_change();
CREATE TRIGGER session_owner_changed AFTER INSERT OR DELETE OR UPDATE OF "owner_id" OR TRUNCATE ON "session"
  FOR EACH STATEMENT EXECUTE FUNCTION talon_notify_table_change();
