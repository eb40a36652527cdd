export * from './v1/subjects.js';
export * from './v1/error-codes.js';
export * from './v1/envelope.js';
export * from './v1/system.js';
export * from './v1/tools.js';
