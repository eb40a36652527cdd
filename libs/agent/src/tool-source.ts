import type { ApprovalRequirement, ToolDefinition } from '@talon/contracts';

/**
 * The live tool catalog as the loop sees it. `list` is called before every model call, so a tool
 * installed mid-session is offered on the next call; keep it cheap (a cached snapshot).
 */
export interface ToolSource {
  list(): readonly ToolDefinition[];
  /** The tool's requirement for these params when it decides per call (`Tool.approvalFor`). */
  approvalFor?(tool: string, params: Readonly<Record<string, unknown>>): ApprovalRequirement | undefined;
  /**
   * Resolves once these tools are listed, or once waiting longer would not help (a catalog that has
   * finished warming up after a start). A resumed turn waits here before it sets its ceiling.
   */
  whenListed?(names: readonly string[], signal?: AbortSignal): Promise<void>;
}
