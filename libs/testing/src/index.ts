export { startNatsTestServer, type NatsTestServer } from './nats-test-server.js';
export { findFreePort } from './free-port.js';
export { startServiceProcess, REPO_ROOT, type ServiceProcess } from './service-process.js';
export { createTestDatabase, TEST_POSTGRES_ADMIN_URL, type TestDatabase } from './test-database.js';
export { connectTalonApi, type TalonApiClient, type TalonApiError } from './talon-api-client.js';
export { waitUntil } from './wait-until.js';
export { startHostCanary, type HostCanary } from './host-canary.js';
export { hostProcessesWith, waitUntilGone } from './host-processes.js';
