export * from './v1/subjects.js';
export * from './v1/error-codes.js';
export * from './v1/envelope.js';
export * from './v1/system.js';
export * from './v1/tools.js';
export * from './v1/api.js';
export * from './proto-path.js';
export * from './v1/skills.js';
