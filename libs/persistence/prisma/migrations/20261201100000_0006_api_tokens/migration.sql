-- The front door: API tokens (stored hashed) and the owner of each session.
-- AlterTable
ALTER TABLE "session" ADD COLUMN     "owner_id" TEXT;

-- CreateTable
CREATE TABLE "api_token" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,

    CONSTRAINT "api_token_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "session_owner_id_idx" ON "session"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_token_hash_key" ON "api_token"("hash");
