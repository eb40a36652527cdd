export {
  startNatsTestServer,
  natsTestServerFor,
  type NatsTestServer,
  type NatsTestServerOptions,
} from './nats-test-server.js';
export { collectNatsErrors } from './nats-connection-errors.js';
export { bearerHeaders } from './bearer-headers.js';
export { findFreePort, serviceNodeOptions } from '@talon/service-runtime';
export { startServiceProcess, REPO_ROOT, type ServiceProcess } from './service-process.js';
export { createTestDatabase, TEST_POSTGRES_ADMIN_URL, type TestDatabase } from './test-database.js';
export {
  connectTalonApi,
  natsTokenHeaders,
  type TalonApiClient,
  type TalonApiClientOptions,
  type TalonApiError,
} from './talon-api-client.js';
export { waitUntil } from './wait-until.js';
export { startHostCanary, type HostCanary } from './host-canary.js';
export { hostProcessesWith, waitUntilGone } from './host-processes.js';
export { startOtlpReceiver, renderTrace, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';
