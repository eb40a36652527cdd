-- Exactly-once turns across orchestrators: the lease that makes one orchestrator the owner of a session's
-- turn, and the claim that makes a tool call start at most once (a claim without a result was interrupted).
-- CreateTable
CREATE TABLE "turn_lease" (
    "session_id" UUID NOT NULL,
    "turn_id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "turn_lease_pkey" PRIMARY KEY ("session_id")
);

-- CreateTable
CREATE TABLE "tool_call_claim" (
    "session_id" UUID NOT NULL,
    "call_id" TEXT NOT NULL,
    "turn_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_call_claim_pkey" PRIMARY KEY ("session_id","call_id")
);

-- CreateIndex
CREATE INDEX "turn_lease_expires_at_idx" ON "turn_lease"("expires_at");

-- AddForeignKey
ALTER TABLE "turn_lease" ADD CONSTRAINT "turn_lease_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

