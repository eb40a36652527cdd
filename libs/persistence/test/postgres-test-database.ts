import { createTestDatabase, type TestDatabase } from '@talon/testing';

export { TEST_POSTGRES_ADMIN_URL } from '@talon/testing';

/** A fresh, empty PostgreSQL database for one test file (the shared helper; `TEST_POSTGRES_URL` picks the server). */
export type PostgresTestDatabase = TestDatabase;

/** Creates `talon_test_<random>` on the test server; `drop()` removes it even with connections left open. */
export function createPostgresTestDatabase(): Promise<PostgresTestDatabase> {
  return createTestDatabase();
}
