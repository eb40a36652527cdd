import { Type, type Static } from '@sinclair/typebox';
import { McpServerConfigSchema } from './mcp-server-config.js';

/**
 * Installed state every replica shares, kept in JetStream: key-value buckets for records and object stores
 * for artifacts (named by their sha256). Local folders are caches of these buckets.
 */
export const SHARED_STATE_BUCKETS = {
  /** KV: one {@link InstalledWasmToolRecord} per installed component tool, keyed by tool name. */
  wasmTools: 'talon_wasm_tools',
  /** Object store: component artifacts, one object per sha256 (hex) of its bytes. */
  wasmArtifacts: 'talon_wasm_artifacts',
  /** KV: one {@link InstalledSkillRecord} per installed skill, keyed by skill name. */
  skills: 'talon_skills',
  /** KV: one {@link SharedMcpServerRecord} per MCP server added through `mcp.add`, keyed by server name. */
  mcpServers: 'talon_mcp_servers',
  /** KV: one {@link McpToolSnapshotRecord} per stdio MCP server, keyed by server name: its last tool list. */
  mcpToolSnapshots: 'talon_mcp_tool_snapshots',
} as const;
/** The name of one shared-state bucket. */
export type SharedStateBucket = (typeof SHARED_STATE_BUCKETS)[keyof typeof SHARED_STATE_BUCKETS];

/**
 * Settings a shared-state bucket is created with and must keep. A bucket that exists with a TTL (records
 * would expire and installed tools vanish), another storage type or no history is refused at start with
 * `STATE_BUCKET_MISMATCH` instead of being silently changed.
 */
export const SHARED_BUCKET_SETTINGS = {
  /** Revisions kept per key: enough to see the last upgrades, small enough to stay cheap. */
  history: 5,
  /** `file`: state survives a NATS restart. */
  storage: 'file',
  /** No expiry: 0. */
  ttlMs: 0,
} as const;

/** One installed component tool, as the wasm-runners share it. Capabilities are stored as written so a runner re-validates them. */
export const InstalledWasmToolRecordSchema = Type.Object({
  name: Type.String(),
  display_name: Type.String(),
  version: Type.String(),
  wit_version: Type.String(),
  /** sha256 (hex) of the artifact; also its object name in `talon_wasm_artifacts`. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  capabilities: Type.Record(Type.String(), Type.Unknown()),
  config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  source_url: Type.String(),
  installed_at: Type.String(),
  /** `built` for a tool made by the tool builder (listed with source "built"); absent for registry tools. */
  origin: Type.Optional(Type.Union([Type.Literal('registry'), Type.Literal('built')])),
});
/** A shared installed component tool. */
export type InstalledWasmToolRecord = Static<typeof InstalledWasmToolRecordSchema>;

/** One installed skill, as the skill-services share it: the SKILL.md itself travels in the record (at most 64 KiB). */
export const InstalledSkillRecordSchema = Type.Object({
  name: Type.String(),
  /** sha256 (hex) of `skill_md`; a replica refuses a record whose text does not match it. */
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** Where it was installed from (registry entry, URL or path). */
  source: Type.String(),
  installed_at: Type.String(),
  /** The SKILL.md text. */
  skill_md: Type.String(),
});
/** A shared installed skill. */
export type InstalledSkillRecord = Static<typeof InstalledSkillRecordSchema>;

/**
 * One MCP server added at run time, as every tool-worker and wasm-runner shares it. The definition is kept
 * as written (`${NAME}` placeholders unexpanded, so each replica expands its own paths); credentials are
 * only ever named (`auth.secret`), never held.
 */
export const SharedMcpServerRecordSchema = Type.Object({
  definition: McpServerConfigSchema,
  added_at: Type.String({ description: 'ISO-8601' }),
});
/** A shared MCP server definition. */
export type SharedMcpServerRecord = Static<typeof SharedMcpServerRecordSchema>;

/**
 * The tool list a stdio MCP server gave when it last started on any wasm-runner, so a runner that has not
 * started it offers the same tools. `fingerprint` is the sha256 of the definition it was listed under: a
 * snapshot of another definition of the same name is not used.
 */
export const McpToolSnapshotRecordSchema = Type.Object({
  server: Type.String(),
  fingerprint: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** The tools as the server listed them (`tools/list` items: name, description, inputSchema, annotations). */
  tools: Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: true })),
  listed_at: Type.String({ description: 'ISO-8601' }),
  /** The runner that listed them. */
  instance_id: Type.String(),
});
/** A shared stdio tool snapshot. */
export type McpToolSnapshotRecord = Static<typeof McpToolSnapshotRecordSchema>;

/** Stream behind a KV bucket. */
export function kvStreamName(bucket: string): string {
  return `KV_${bucket}`;
}

/** Stream behind an object store. */
export function objectStoreStreamName(bucket: string): string {
  return `OBJ_${bucket}`;
}

/** JetStream API subjects a client needs to read a stream: info, direct and stored gets, ordered consumers (watches, object reads). */
function streamReadSubjects(stream: string): string[] {
  return [
    '$JS.API.INFO',
    `$JS.API.STREAM.INFO.${stream}`,
    `$JS.API.DIRECT.GET.${stream}`,
    `$JS.API.DIRECT.GET.${stream}.>`,
    `$JS.API.STREAM.MSG.GET.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}`,
    `$JS.API.CONSUMER.CREATE.${stream}.>`,
    `$JS.API.CONSUMER.DELETE.${stream}.>`,
    `$JS.API.CONSUMER.INFO.${stream}.>`,
  ];
}

/** What a reader of a KV bucket publishes (requests on the JetStream API). */
export function kvReadSubjects(bucket: string): string[] {
  return streamReadSubjects(kvStreamName(bucket));
}

/** The creation of a KV bucket (with Talon's settings, when it is missing), without writing its keys. */
export function kvCreateSubject(bucket: string): string {
  return `$JS.API.STREAM.CREATE.${kvStreamName(bucket)}`;
}

/** What the writer of a KV bucket publishes besides the reads: the bucket's creation and its keys. */
export function kvWriteSubjects(bucket: string): string[] {
  return [kvCreateSubject(bucket), `$KV.${bucket}.>`];
}

/** What a reader of an object store publishes. */
export function objectStoreReadSubjects(bucket: string): string[] {
  return streamReadSubjects(objectStoreStreamName(bucket));
}

/** What the writer of an object store publishes besides the reads: creation, chunks and metadata, purges of replaced chunks. */
export function objectStoreWriteSubjects(bucket: string): string[] {
  const stream = objectStoreStreamName(bucket);
  return [`$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.PURGE.${stream}`, `$O.${bucket}.>`];
}
