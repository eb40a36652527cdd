export { createEchoTool, ECHO_MAX_DELAY_MS, ECHO_MAX_MESSAGE_LENGTH, type EchoParams } from './echo-tool.js';
export {
  createTimeTool,
  runTimeOperation,
  TIME_OPERATIONS,
  type TimeOperation,
  type TimeParams,
  type TimeDifference,
} from './time-tool.js';
export {
  TIME_FORMATS,
  DURATION_UNITS,
  type TimeFormat,
  type DurationUnit,
  type TimeResult,
} from './time-values.js';
export {
  createJsonTool,
  JSON_OPERATIONS,
  DEFAULT_QUERY_LIMIT,
  type JsonOperation,
  type JsonParams,
  type JsonQueryMatch,
  type JsonToolOptions,
} from './json-tool.js';
export { UnknownTimeZoneError } from './errors/unknown-time-zone-error.js';
export { InvalidTimeError } from './errors/invalid-time-error.js';
export { JsonParseError, type JsonErrorPosition } from './errors/json-parse-error.js';
export { JsonPathError } from './errors/json-path-error.js';
export { InvalidJsonSchemaError } from './errors/invalid-json-schema-error.js';
export {
  HttpTool,
  createHttpTool,
  HTTP_TOOL_METHODS,
  DEFAULT_HTTP_TOOL_MAX_BODY_CHARS,
  type HttpToolMethod,
  type HttpToolParams,
  type HttpToolOutput,
  type HttpToolOptions,
} from './http-tool.js';
export {
  WebFetchTool,
  createWebFetchTool,
  DEFAULT_WEB_FETCH_MAX_CHARS,
  MAX_WEB_FETCH_MAX_CHARS,
  type WebFetchParams,
  type WebFetchOutput,
} from './web-fetch-tool.js';
export {
  parseNetworkToolOptions,
  DEFAULT_NETWORK_TOOL_MAX_RESPONSE_BYTES,
  DEFAULT_NETWORK_TOOL_TIMEOUT_MS,
  type NetworkToolOptions,
  type NetworkToolConfig,
} from './network-tool-options.js';
export { htmlToText, type ReadablePage } from './html-to-text.js';
