-- CreateTable
CREATE TABLE "approval" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "call_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "params_redacted" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "decision" TEXT,

    CONSTRAINT "approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "session_grant" (
    "session_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_grant_pkey" PRIMARY KEY ("session_id","kind","target")
);

-- CreateTable
CREATE TABLE "secret" (
    "name" TEXT NOT NULL,
    "ciphertext" BYTEA NOT NULL,
    "iv" BYTEA NOT NULL,
    "tag" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "secret_pkey" PRIMARY KEY ("name")
);

-- CreateTable
-- "search" is declared Unsupported("tsvector") in the schema: Prisma never writes it, the database derives it.
CREATE TABLE "memory_document" (
    "path" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "path" || ' ' || "content")) STORED,

    CONSTRAINT "memory_document_pkey" PRIMARY KEY ("path")
);

-- CreateTable
CREATE TABLE "job" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "payload" JSONB NOT NULL DEFAULT '{}',
    "result" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "approval_session_id_status_idx" ON "approval"("session_id", "status");

-- CreateIndex
CREATE INDEX "memory_document_search_idx" ON "memory_document" USING GIN ("search");

-- CreateIndex
CREATE INDEX "job_status_idx" ON "job"("status");
