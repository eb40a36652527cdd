import type {
  McpDefinitionReply,
  McpServerConfig,
  McpToolSnapshotRecord,
  SharedMcpServerRecord,
} from '@talon/contracts';
import { LeakDetector } from '@talon/safety';
import type { RecordBucket } from '@talon/shared-state';
import { McpFileDefinedServerError } from './errors/mcp-file-defined-server-error.js';
import { McpPlaintextSecretError } from './errors/mcp-plaintext-secret-error.js';
import { McpUnknownServerError } from './errors/mcp-unknown-server-error.js';
import { parseMcpServerConfig } from './mcp-server-config.js';
import { PLACEHOLDER_CONFIG_VARIABLES } from './shared-mcp-definitions.js';

/** Header and environment names that carry credentials; their values belong in the secrets store. */
const CREDENTIAL_NAME = /authorization|cookie|token|secret|passw|api[-_]?key|credential|private[-_]?key/i;

/**
 * Writes the definitions of `mcp.add` / `mcp.remove` to the shared bucket every tool-worker and
 * wasm-runner follows. A definition is checked as fully as a file one (schema, sandbox, `${NAME}`
 * placeholders) and refused when it holds a credential in plain text; names a deployment file defines are
 * refused too (files win, see effectiveMcpDefinitions).
 */
export class SharedMcpDefinitionWriter {
  private readonly leaks = new LeakDetector();

  constructor(
    private readonly definitions: RecordBucket<SharedMcpServerRecord>,
    /** Names the deployment files define (looked up on every call, so a reload is seen). */
    private readonly fileDefined: () => ReadonlySet<string>,
    private readonly snapshots?: RecordBucket<McpToolSnapshotRecord>,
  ) {}

  /** @throws McpConfigError / McpPlaintextSecretError (SCHEMA_VIOLATION), McpFileDefinedServerError (NAME_CONFLICT) */
  async add(config: McpServerConfig): Promise<McpDefinitionReply> {
    parseMcpServerConfig(config, {
      variables: PLACEHOLDER_CONFIG_VARIABLES,
      source: `mcp.add ${config.name}`,
    });
    this.refusePlaintextCredentials(config);
    if (this.fileDefined().has(config.name)) throw new McpFileDefinedServerError(config.name, 'add');
    const previous = this.definitions.get(config.name);
    const record: SharedMcpServerRecord = { definition: config, added_at: new Date().toISOString() };
    await this.definitions.put(config.name, record);
    // A replaced definition's tools are listed again by whoever starts it; an old list must not linger.
    if (previous) await this.snapshots?.delete(config.name);
    return {
      name: config.name,
      source: 'api',
      transport: config.transport.type,
      change: previous ? 'updated' : 'added',
      addedAt: record.added_at,
    };
  }

  /** @throws McpFileDefinedServerError for a file-defined name, McpUnknownServerError (NOT_FOUND) for an unknown one */
  async remove(name: string): Promise<McpDefinitionReply> {
    const record = this.definitions.get(name);
    if (!record) {
      if (this.fileDefined().has(name)) throw new McpFileDefinedServerError(name, 'remove');
      throw new McpUnknownServerError(
        `No MCP server named "${name}" was added with mcp.add; mcp.list shows every server and its source.`,
        { details: { server: name } },
      );
    }
    await this.definitions.delete(name);
    await this.snapshots?.delete(name);
    return {
      name,
      source: 'api',
      transport: record.definition.transport.type,
      change: 'removed',
      addedAt: record.added_at,
    };
  }

  private refusePlaintextCredentials(config: McpServerConfig): void {
    const { transport } = config;
    const named: Array<[string, Record<string, string> | undefined]> =
      transport.type === 'stdio'
        ? [['transport.env', transport.env]]
        : [['transport.headers', transport.headers]];
    for (const [field, map] of named) {
      for (const [key, value] of Object.entries(map ?? {})) {
        if (CREDENTIAL_NAME.test(key) && value !== '')
          throw new McpPlaintextSecretError(config.name, `${field}.${key}`, 'names a credential');
      }
    }
    const strings: Array<[string, string]> = [];
    const collect = (value: unknown, path: string) => {
      if (typeof value === 'string') strings.push([path, value]);
      else if (Array.isArray(value)) value.forEach((item, index) => collect(item, `${path}[${index}]`));
      else if (value && typeof value === 'object')
        for (const [key, item] of Object.entries(value)) collect(item, path ? `${path}.${key}` : key);
    };
    collect(transport, 'transport');
    for (const [path, value] of strings) {
      const finding = this.leaks.scan(value)[0];
      if (finding) throw new McpPlaintextSecretError(config.name, path, `holds a ${finding.kind}`);
    }
    if (transport.type !== 'stdio' && /^[a-z]+:\/\/[^/@]*:[^/@]*@/i.test(transport.url))
      throw new McpPlaintextSecretError(config.name, 'transport.url', 'holds a password');
  }
}
