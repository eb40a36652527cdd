-- The session row numbers its messages: an append bumps `last_seq` and takes the numbers it skipped.
-- The row lock queues writers racing on one session, where `MAX(seq) + 1` made the losers retry and,
-- with forty at once, some ran out of retries.
ALTER TABLE "session" ADD COLUMN "last_seq" INTEGER NOT NULL DEFAULT 0;
UPDATE "session" SET "last_seq" = COALESCE((SELECT MAX("seq") FROM "message" WHERE "message"."session_id" = "session"."id"), 0);
