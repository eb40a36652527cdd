-- Approvals remember their turn and the policy's reason; secrets are stored sealed in one field with
-- where the host may inject them.
-- AlterTable
ALTER TABLE "approval" ADD COLUMN     "reason" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "turn_id" TEXT;

-- AlterTable
ALTER TABLE "secret" DROP COLUMN "ciphertext",
DROP COLUMN "iv",
DROP COLUMN "tag",
ADD COLUMN     "host_patterns" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "location" JSONB NOT NULL DEFAULT '{"kind": "bearer"}',
ADD COLUMN     "sealed" TEXT NOT NULL;
