export type { Principal } from './principal.js';
export {
  API_TOKEN_PREFIX,
  generateApiToken,
  hashApiToken,
  looksLikeApiToken,
  type GeneratedApiToken,
} from './api-token.js';
export type { StoredApiToken, TokenStore } from './token-store.js';
export { TokenVerifier, DEFAULT_TOKEN_CACHE_MS, type TokenVerifierOptions } from './token-verifier.js';
export { UnauthenticatedError } from './errors/unauthenticated-error.js';
export {
  STREAM_RECHECK_MS,
  streamRefusalMessage,
  watchStreamAuthorization,
  type StreamAuthorizationOptions,
} from './stream-authorization.js';
export { ForbiddenError } from './errors/forbidden-error.js';
export {
  renderNatsServerConfig,
  deployNatsConfig,
  natsPasswordEnvName,
  type NatsServerConfigOptions,
  type NatsPasswordSource,
} from './nats-server-config.js';
export { generateNatsCredentials, type NatsCredentials } from './nats-credentials.js';
export {
  OPERATOR_TOKEN_FILE,
  operatorTokenPath,
  writeOperatorTokenFile,
  readTokenFile,
} from './operator-token-file.js';
export { InMemoryTokenStore } from './in-memory-token-store.js';
