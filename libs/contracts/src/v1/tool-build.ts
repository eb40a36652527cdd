import { Type, type Static } from '@sinclair/typebox';

/*
 * Building a WebAssembly tool from a description (`tools.build` / `tool_build`), and installing the result once a
 * person has approved it (`tools.installBuild` / `tool_build_install`). Both run on the wasm-runner.
 */

/** Name of a built tool: the registry's naming rule. */
export const BuiltToolNameSchema = Type.String({
  pattern: '^[a-z0-9][a-z0-9_-]{0,63}$',
  description: 'tool name (lowercase letters, digits, _ and -)',
});

/** One example call: the params, and what the output must contain (a JSON subset, see docs/tool-building.md). */
export const ToolBuildExampleSchema = Type.Object(
  {
    params: Type.Record(Type.String(), Type.Unknown()),
    expect: Type.Unknown({
      description:
        'what the output must contain: an object matches when each of its keys matches, an array element by element, anything else by equality; {"error": "text"} expects a failure containing the text',
    }),
  },
  { additionalProperties: false },
);
/** One example call of a build request. */
export type ToolBuildExample = Static<typeof ToolBuildExampleSchema>;

/** Request of `tools.build` and params of `tool_build`. */
export const ToolBuildRequestSchema = Type.Object(
  {
    name: BuiltToolNameSchema,
    description: Type.String({ minLength: 1, maxLength: 4096, description: 'what the tool must do' }),
    examples: Type.Array(ToolBuildExampleSchema, { minItems: 1, maxItems: 10 }),
    /**
     * The widest capabilities the tool may get, in the `*.capabilities.json` format (effects, http allowlist and
     * credentials, secrets, workspace prefixes, limits). Absent: none (pure computation).
     */
    capabilities: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** Model rounds before the build gives up. Default 3. */
    max_rounds: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  },
  { additionalProperties: false },
);
/** Request of `tools.build`. */
export type ToolBuildRequest = Static<typeof ToolBuildRequestSchema>;

/** Request of `tools.installBuild` and params of `tool_build_install`: exactly what the person approves. */
export const ToolBuildInstallRequestSchema = Type.Object(
  {
    build_id: Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}@\\d+\\.\\d+\\.\\d+$' }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    /** The capabilities from the build report, unchanged: the install refuses anything else. */
    capabilities: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);
/** Request of `tools.installBuild`. */
export type ToolBuildInstallRequest = Static<typeof ToolBuildInstallRequestSchema>;

/** The stages a build reports as events. */
export const TOOL_BUILD_STAGES = [
  'started',
  'model',
  'source',
  'compile',
  'schema',
  'examples',
  'capabilities',
  'round_failed',
  'ready',
  'failed',
  'installed',
] as const;
/** One build stage. */
export type ToolBuildStage = (typeof TOOL_BUILD_STAGES)[number];

/** Published on {@link toolBuildEventsSubject} as a build goes. */
export const ToolBuildEventSchema = Type.Object({
  buildId: Type.String(),
  name: Type.String(),
  stage: Type.Union(TOOL_BUILD_STAGES.map((stage) => Type.Literal(stage))),
  round: Type.Integer({ minimum: 0 }),
  message: Type.String(),
  /** Milliseconds the stage took, when it has a duration. */
  durationMs: Type.Optional(Type.Number()),
  at: Type.String(),
});
/** One build event. */
export type ToolBuildEvent = Static<typeof ToolBuildEventSchema>;

/** Subject of a tool's build events: `talon.events.v1.tool-build.<name>`. */
export const toolBuildEventsSubject = (name: string): string => `talon.events.v1.tool-build.${name}`;

/** One example call as the build ran it in the sandbox. */
export interface ToolBuildExampleResult {
  params: Record<string, unknown>;
  expect: unknown;
  ok: boolean;
  output?: unknown;
  error?: string;
  /** Host calls the sandbox refused during the call (an undeclared host, secret, path or alias). */
  flags: string[];
  durationMs: number;
}

/** What `tool_build` answers: everything a person needs to approve the tool, or why it was refused. */
export interface ToolBuildReport {
  /** `<name>@<version>`; pass it to `tools.installBuild` once approved. */
  build_id: string;
  name: string;
  version: string;
  status: 'ready' | 'failed';
  /** Why a failed build was refused. */
  reason?: string;
  /** The problems of every round, fed back to the model. */
  rounds: { round: number; problems: string[]; durationMs: number }[];
  /** The last source the model wrote. */
  source?: string;
  build_log: string[];
  examples: ToolBuildExampleResult[];
  /** What the code asks for (host imports; literal URLs, secrets, paths, aliases). */
  needs?: {
    imports: string[];
    urls: string[];
    secrets: string[];
    workspacePaths: string[];
    aliases: string[];
  };
  /** The capabilities the tool will run with if approved: never wider than `requested_capabilities`. */
  capabilities?: Record<string, unknown>;
  requested_capabilities: Record<string, unknown>;
  sha256?: string;
  wit_version?: string;
  size_bytes?: number;
  /** What to do next. */
  next?: string;
}
