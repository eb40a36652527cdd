import { Type, type Static } from '@sinclair/typebox';
import { ToolEffectSchema } from '@talon/contracts';
import { Ajv, type ErrorObject } from 'ajv';
import { CapabilitiesInvalidError } from './errors/capabilities-invalid-error.js';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** One allowed HTTP destination: a host (with `:port` to pin a port), a path prefix and methods. */
export const HttpAllowEntrySchema = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 253, pattern: '^[A-Za-z0-9.\\-:\\[\\]]+$' }),
    path_prefix: Type.String({ pattern: '^/' }),
    methods: Type.Array(Type.Union(HTTP_METHODS.map((method) => Type.Literal(method))), {
      minItems: 1,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);

/** A credential the host injects into matching requests; the guest never sees its value. */
export const CredentialSpecSchema = Type.Object(
  {
    secret_name: Type.String({ minLength: 1 }),
    location: Type.Object(
      {
        kind: Type.Union([Type.Literal('header'), Type.Literal('query'), Type.Literal('bearer')]),
        name: Type.Optional(Type.String({ minLength: 1 })),
      },
      { additionalProperties: false },
    ),
    host_patterns: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
  },
  { additionalProperties: false },
);

/** JSON Schema of a `*.capabilities.json` file: everything a component may do outside its own memory. */
export const CapabilitiesSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    effects: Type.Array(ToolEffectSchema, { uniqueItems: true }),
    http: Type.Optional(
      Type.Object(
        {
          allowlist: Type.Array(HttpAllowEntrySchema),
          credentials: Type.Optional(Type.Array(CredentialSpecSchema)),
          max_request_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
          max_response_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 600000 })),
        },
        { additionalProperties: false },
      ),
    ),
    rate_limit: Type.Optional(
      Type.Object(
        { calls: Type.Integer({ minimum: 1 }), per_ms: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    secrets: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { uniqueItems: true })),
    workspace: Type.Optional(
      Type.Object(
        {
          read_prefixes: Type.Array(Type.String({ minLength: 1 })),
          max_read_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    tool_aliases: Type.Optional(
      Type.Record(Type.String({ pattern: '^[a-zA-Z0-9_.-]{1,64}$' }), Type.String({ minLength: 1 })),
    ),
    limits: Type.Optional(
      Type.Object(
        {
          memory_mb: Type.Optional(Type.Integer({ minimum: 1, maximum: 4096 })),
          timeout_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: 600000 })),
          max_concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
          max_output_bytes: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Interfaces besides `talon:tool/host` the component may import (e.g. `wasi:random/random`). Empty by default. */
    allowed_imports: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  },
  { additionalProperties: false },
);

/** A capabilities file as written. */
export type CapabilitiesFile = Static<typeof CapabilitiesSchema>;
/** An HTTP allowlist entry. */
export type HttpAllowEntry = Static<typeof HttpAllowEntrySchema>;
/** A credential injection rule. */
export type CredentialSpec = Static<typeof CredentialSpecSchema>;

/** Defaults applied to every field a capabilities file leaves out. */
export const DEFAULT_LIMITS = {
  memoryMb: 256,
  timeoutMs: 10_000,
  maxConcurrency: 2,
  maxOutputBytes: 1_048_576,
  httpMaxRequestBytes: 262_144,
  httpMaxResponseBytes: 1_048_576,
  httpTimeoutMs: 10_000,
  workspaceMaxReadBytes: 1_048_576,
} as const;

/** Capabilities with defaults filled in: what the host enforces. */
export interface Capabilities {
  effects: CapabilitiesFile['effects'];
  httpAllowlist: HttpAllowEntry[];
  credentials: CredentialSpec[];
  httpMaxRequestBytes: number;
  httpMaxResponseBytes: number;
  httpTimeoutMs: number;
  rateLimit?: { calls: number; perMs: number };
  secrets: string[];
  workspacePrefixes: string[];
  workspaceMaxReadBytes: number;
  toolAliases: Record<string, string>;
  memoryMb: number;
  timeoutMs: number;
  maxConcurrency: number;
  maxOutputBytes: number;
  allowedImports: string[];
}

const ajv = new Ajv({ allErrors: true, strict: false });
const validateFile = ajv.compile<CapabilitiesFile>(CapabilitiesSchema);

function describeViolation(error: ErrorObject): string {
  return `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`;
}

/** Checks that what the file grants is also declared as an effect, and that credentials use allowed secrets. */
function consistencyViolations(file: CapabilitiesFile): string[] {
  const violations: string[] = [];
  const effects = new Set(file.effects);
  const secrets = new Set(file.secrets ?? []);
  if ((file.http?.allowlist.length ?? 0) > 0 && !effects.has('network'))
    violations.push('/http allowlist needs the "network" effect');
  for (const credential of file.http?.credentials ?? []) {
    if (!secrets.has(credential.secret_name))
      violations.push(`/http/credentials secret "${credential.secret_name}" is not listed in /secrets`);
    if (credential.location.kind !== 'bearer' && !credential.location.name)
      violations.push(`/http/credentials "${credential.secret_name}" needs location.name`);
  }
  if (secrets.size > 0 && !effects.has('use_secret'))
    violations.push('/secrets needs the "use_secret" effect');
  if ((file.workspace?.read_prefixes.length ?? 0) > 0 && !effects.has('read_filesystem'))
    violations.push('/workspace needs the "read_filesystem" effect');
  for (const prefix of file.workspace?.read_prefixes ?? []) {
    if (prefix.startsWith('/') || prefix.split(/[\\/]/).includes('..') || prefix.includes('\0'))
      violations.push(`/workspace prefix "${prefix}" must be relative and stay inside the workspace`);
  }
  if (Object.keys(file.tool_aliases ?? {}).length > 0 && !effects.has('dispatch_capability'))
    violations.push('/tool_aliases needs the "dispatch_capability" effect');
  return violations;
}

/**
 * Validates a parsed `*.capabilities.json` and fills in defaults.
 * @throws CapabilitiesInvalidError listing every violation.
 */
export function parseCapabilities(input: unknown, source = 'capabilities'): Capabilities {
  if (!validateFile(input)) {
    const violations = (validateFile.errors ?? []).map(describeViolation);
    throw new CapabilitiesInvalidError(
      `${source} is invalid: ${violations.join('; ')}. Fix the file and install again.`,
      { details: { violations } },
    );
  }
  const file = input;
  const violations = consistencyViolations(file);
  if (violations.length > 0) {
    throw new CapabilitiesInvalidError(`${source} is inconsistent: ${violations.join('; ')}.`, {
      details: { violations },
    });
  }
  return {
    effects: file.effects,
    httpAllowlist: file.http?.allowlist ?? [],
    credentials: file.http?.credentials ?? [],
    httpMaxRequestBytes: file.http?.max_request_bytes ?? DEFAULT_LIMITS.httpMaxRequestBytes,
    httpMaxResponseBytes: file.http?.max_response_bytes ?? DEFAULT_LIMITS.httpMaxResponseBytes,
    httpTimeoutMs: file.http?.timeout_ms ?? DEFAULT_LIMITS.httpTimeoutMs,
    rateLimit: file.rate_limit ? { calls: file.rate_limit.calls, perMs: file.rate_limit.per_ms } : undefined,
    secrets: file.secrets ?? [],
    workspacePrefixes: file.workspace?.read_prefixes ?? [],
    workspaceMaxReadBytes: file.workspace?.max_read_bytes ?? DEFAULT_LIMITS.workspaceMaxReadBytes,
    toolAliases: file.tool_aliases ?? {},
    memoryMb: file.limits?.memory_mb ?? DEFAULT_LIMITS.memoryMb,
    timeoutMs: file.limits?.timeout_ms ?? DEFAULT_LIMITS.timeoutMs,
    maxConcurrency: file.limits?.max_concurrency ?? DEFAULT_LIMITS.maxConcurrency,
    maxOutputBytes: file.limits?.max_output_bytes ?? DEFAULT_LIMITS.maxOutputBytes,
    allowedImports: file.allowed_imports ?? [],
  };
}
