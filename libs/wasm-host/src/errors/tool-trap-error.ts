import { ToolFailedError } from '@talon/tool-runtime';

/** A component trapped (or its worker died); the worker was recycled. A kind of TOOL_FAILED. */
export class ToolTrapError extends ToolFailedError {}
