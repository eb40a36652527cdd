import type { ToolDefinition, ToolEffect } from '@talon/contracts';

/** The parts in which the orchestrator's own tools differ; the rest is the same for all of them. */
export interface ControlPlaneToolShape {
  name: string;
  description: string;
  /** JSON Schema properties and `required`; `type: object` and no additional properties are added. */
  parameters: Record<string, unknown>;
  effects: ToolEffect[];
  approval: ToolDefinition['approval'];
  /** Default 10 s. */
  timeoutMs?: number;
  /** Default: true when the tool has no effects (it only reads). */
  idempotent?: boolean;
}

/** A built-in tool that runs in the orchestrator itself (memory, secrets, skills, MCP control, tool_info). */
export function controlPlaneToolDefinition(shape: ControlPlaneToolShape): ToolDefinition {
  return {
    name: shape.name,
    description: shape.description,
    parameters: { type: 'object', additionalProperties: false, ...shape.parameters },
    effects: shape.effects,
    approval: shape.approval,
    timeoutMs: shape.timeoutMs ?? 10_000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: shape.idempotent ?? shape.effects.length === 0,
  };
}
