/** Injection tokens of the skill-service. */
export const SKILL_CATALOG = Symbol('SKILL_CATALOG');
/** The sync of installed skills with the other replicas (JetStream KV `talon_skills`). */
export const SKILL_SHARING = Symbol('SKILL_SHARING');
/** The MCP server names `requires.mcp` is gated against (files plus KV `talon_mcp_servers`). */
export const SKILL_MCP_SERVERS = Symbol('SKILL_MCP_SERVERS');
