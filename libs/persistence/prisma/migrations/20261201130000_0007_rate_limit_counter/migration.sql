-- Rate limits shared by every orchestrator (rate-limiter-flexible's PostgreSQL store).
-- CreateTable
CREATE TABLE "rate_limit_counter" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limit_counter_pkey" PRIMARY KEY ("key")
);
