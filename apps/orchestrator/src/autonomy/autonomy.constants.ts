/** Injection tokens of the autonomy module. */
export const JOB_STORE = Symbol('JOB_STORE');
export const JOB_RUNNER = Symbol('JOB_RUNNER');
export const JOB_EVENT_LOG = Symbol('JOB_EVENT_LOG');
export const JOB_ACTION_HANDLERS = Symbol('JOB_ACTION_HANDLERS');
export const JOB_SERVICE = Symbol('JOB_SERVICE');
export const ROUTINE_SERVICE = Symbol('ROUTINE_SERVICE');
export const SCHEDULER = Symbol('SCHEDULER');
export const AUTONOMY_TOOLS = Symbol('AUTONOMY_TOOLS');
export const SKILL_ROUTINE_SYNC = Symbol('SKILL_ROUTINE_SYNC');
export const HAND_ROUTINE_SYNC = Symbol('HAND_ROUTINE_SYNC');
