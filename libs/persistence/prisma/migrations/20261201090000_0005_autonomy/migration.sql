-- Jobs become a durable queue with leases (issue 13); routines and their claimed fires; job events.
-- The job table was unused; any old rows keep their meaning under the new state names.
-- DropIndex
DROP INDEX "job_status_idx";

-- AlterTable
ALTER TABLE "job" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cancel_requested" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "error_code" TEXT,
ADD COLUMN     "finished_at" TIMESTAMPTZ(3),
ADD COLUMN     "fire_id" UUID,
ADD COLUMN     "input" JSONB,
ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "lease_owner" TEXT,
ADD COLUMN     "limits" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "max_attempts" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "policy" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "routine_id" UUID,
ADD COLUMN     "run_after" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "session_id" UUID,
ADD COLUMN     "started_at" TIMESTAMPTZ(3),
ALTER COLUMN "status" SET DEFAULT 'pending';

-- CreateTable
CREATE TABLE "job_event" (
    "id" BIGSERIAL NOT NULL,
    "job_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "job_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routine" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "trigger_kind" TEXT NOT NULL,
    "trigger" JSONB NOT NULL,
    "action" JSONB NOT NULL,
    "policy" JSONB NOT NULL DEFAULT '{}',
    "limits" JSONB NOT NULL DEFAULT '{}',
    "guardrails" JSONB NOT NULL DEFAULT '{}',
    "event_name" TEXT,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "disabled_reason" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "next_fire_at" TIMESTAMPTZ(3),
    "last_fire_at" TIMESTAMPTZ(3),
    "webhook_secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "routine_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routine_fire" (
    "id" UUID NOT NULL,
    "routine_id" UUID NOT NULL,
    "slot_key" TEXT NOT NULL,
    "slot_at" TIMESTAMPTZ(3) NOT NULL,
    "source" TEXT NOT NULL,
    "dedup_key" TEXT,
    "claimed_by" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "job_id" UUID,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "duration_ms" INTEGER,

    CONSTRAINT "routine_fire_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "job_event_job_id_seq_key" ON "job_event"("job_id", "seq");

-- CreateIndex
CREATE INDEX "routine_next_fire_at_idx" ON "routine"("next_fire_at");

-- CreateIndex
CREATE INDEX "routine_trigger_kind_idx" ON "routine"("trigger_kind");

-- CreateIndex
CREATE INDEX "routine_owner_idx" ON "routine"("owner");

-- CreateIndex
CREATE INDEX "routine_fire_routine_id_slot_at_idx" ON "routine_fire"("routine_id", "slot_at");

-- CreateIndex
CREATE INDEX "routine_fire_routine_id_dedup_key_idx" ON "routine_fire"("routine_id", "dedup_key");

-- CreateIndex
CREATE INDEX "routine_fire_job_id_idx" ON "routine_fire"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "routine_fire_routine_id_slot_key_key" ON "routine_fire"("routine_id", "slot_key");

-- CreateIndex
CREATE INDEX "job_status_run_after_idx" ON "job"("status", "run_after");

-- CreateIndex
CREATE INDEX "job_routine_id_status_idx" ON "job"("routine_id", "status");

-- AddForeignKey
ALTER TABLE "job_event" ADD CONSTRAINT "job_event_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "routine_fire" ADD CONSTRAINT "routine_fire_routine_id_fkey" FOREIGN KEY ("routine_id") REFERENCES "routine"("id") ON DELETE CASCADE ON UPDATE CASCADE;

UPDATE "job" SET "status" = 'pending' WHERE "status" = 'queued';
UPDATE "job" SET "status" = 'completed' WHERE "status" = 'succeeded';
