-- Index the words of a memory path ("projects/talon/plan.md" → projects talon plan md): the simple
-- parser reads a whole path as one file token, so searching "talon" would not find it.
DROP INDEX "memory_document_search_idx";
ALTER TABLE "memory_document" DROP COLUMN "search";
ALTER TABLE "memory_document" ADD COLUMN "search" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, translate("path", '/._-', '    ') || ' ' || "content")) STORED;
CREATE INDEX "memory_document_search_idx" ON "memory_document" USING GIN ("search");
