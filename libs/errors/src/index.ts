export { TalonError, type TalonErrorOptions } from './talon-error.js';
export { toWireError, fromWireError } from './wire-error.js';
