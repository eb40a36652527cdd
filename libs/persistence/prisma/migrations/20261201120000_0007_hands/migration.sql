-- CreateTable
CREATE TABLE "hand_instance" (
    "name" TEXT NOT NULL,
    "hand_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'active',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "hand_instance_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "hand_run" (
    "id" UUID NOT NULL,
    "hand_id" TEXT NOT NULL,
    "instance" TEXT,
    "state" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "input" TEXT,
    "requested_by" TEXT NOT NULL,
    "approval_deadline" TIMESTAMPTZ(3),
    "decided_by" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hand_run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reminder_notification" (
    "id" UUID NOT NULL,
    "routine_id" UUID,
    "job_id" UUID NOT NULL,
    "session_id" UUID,
    "text" TEXT NOT NULL,
    "delivered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reminder_notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "hand_instance_hand_id_idx" ON "hand_instance"("hand_id");

-- CreateIndex
CREATE INDEX "hand_run_hand_id_created_at_idx" ON "hand_run"("hand_id", "created_at");

-- CreateIndex
CREATE INDEX "hand_run_state_approval_deadline_idx" ON "hand_run"("state", "approval_deadline");

-- CreateIndex
CREATE UNIQUE INDEX "reminder_notification_job_id_key" ON "reminder_notification"("job_id");

-- CreateIndex
CREATE INDEX "reminder_notification_session_id_delivered_at_idx" ON "reminder_notification"("session_id", "delivered_at");
