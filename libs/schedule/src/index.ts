export { parseSchedule, DEFAULT_SCHEDULE_TIMEZONE, type ScheduleParseOptions } from './schedule-parser.js';
export { hasScheduleIntent, INTENT_SCAN_CHARS } from './schedule-intent.js';
export { EXACT_CONFIDENCE } from './schedule-builder.js';
export { MAX_SCHEDULE_TEXT_CHARS } from './schedule-text.js';
export { ScheduleInputError } from './schedule-input-error.js';
export { scheduleConfirmation } from './schedule-confirmation.js';
