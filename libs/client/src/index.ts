export {
  createTalonClient,
  type TalonClient,
  type TalonChat,
  type ChatStreamOptions,
} from './talon-client.js';
export type { TalonApi, ApiNamespace, ApiMethodFunction } from './talon-api.js';
export {
  DEFAULT_TIMEOUT_MS,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_DELAY_MS,
  DEFAULT_FIRST_ATTEMPT_TIMEOUT_MS,
  FIRST_ATTEMPT_MARGIN_MS,
  DEFAULT_STREAM_IDLE_MS,
  type TalonClientOptions,
  type CallOptions,
  type NatsServerOptions,
  type HttpServerOptions,
} from './talon-client-options.js';
export { NATS_TURN_TIMEOUT_MS } from './nats-transport.js';
export { ReplyInbox, ReplyInboxError } from './reply-inbox.js';
export {
  TalonError,
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  type TalonErrorCode,
  type TalonErrorOptions,
} from './talon-error.js';
export { TalonProtocolError } from './talon-protocol-error.js';
export { TalonStreamInterruptedError } from './talon-stream-interrupted-error.js';
export { TalonAbortedError } from './talon-aborted-error.js';
export type { TalonTransport } from './talon-transport.js';
export {
  API_METHODS,
  API_METHOD_NAMES,
  ERROR_CODES,
  type ApiMethodName,
  type ApiRequestOf,
  type ApiReplyOf,
  type TypedChatEvent,
  type ErrorCode,
} from '@talon/contracts';
