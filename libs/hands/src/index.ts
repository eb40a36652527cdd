export {
  parseHandText,
  readHandFile,
  MAX_HAND_FILE_BYTES,
  type HandParseOptions,
  type HandParseResult,
} from './hand-parser.js';
export { discoverHands, type HandDiscoveryOptions, type HandSnapshot } from './hand-discovery.js';
export { evaluateHandGating } from './hand-gating.js';
export { resolveHandSettings, renderHandSystemPrompt } from './hand-settings.js';
export { HandSettingError } from './hand-setting-error.js';
export { REMINDER_HAND, SYSTEM_HANDS } from './system-hands.js';
export { HAND_FILE_SUFFIX, HAND_ID_PATTERN, handIdProblem } from './hand-id-rules.js';
