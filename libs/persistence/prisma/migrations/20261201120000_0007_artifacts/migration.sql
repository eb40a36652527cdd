-- Artifacts: media and binary resources of tool results, by sha256, and the sessions that saw them.
-- CreateTable
CREATE TABLE "artifact" (
    "sha256" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifact_pkey" PRIMARY KEY ("sha256")
);

-- CreateTable
CREATE TABLE "artifact_session" (
    "sha256" TEXT NOT NULL,
    "session_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "artifact_session_pkey" PRIMARY KEY ("sha256","session_id")
);

-- CreateIndex
CREATE INDEX "artifact_session_session_id_idx" ON "artifact_session"("session_id");

-- AddForeignKey
ALTER TABLE "artifact_session" ADD CONSTRAINT "artifact_session_sha256_fkey" FOREIGN KEY ("sha256") REFERENCES "artifact"("sha256") ON DELETE CASCADE ON UPDATE CASCADE;
