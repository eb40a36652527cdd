import { ToolFailedError } from '@talon/tool-runtime';

/** A component ran out of its memory cap; the worker was recycled. A kind of TOOL_FAILED. */
export class MemoryLimitError extends ToolFailedError {}
