/** Injection tokens of hand runs and instances. */
export const HAND_RUN_SERVICE = Symbol('HAND_RUN_SERVICE');
export const HAND_INSTANCE_SERVICE = Symbol('HAND_INSTANCE_SERVICE');
export const HAND_TOOLS = Symbol('HAND_TOOLS');
