import type { AgentToolCall, ToolCaller } from '@talon/agent';
import type { ToolsCallReply } from '@talon/contracts';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ToolDispatcher } from '../tools/tool-dispatcher.js';
import type { WasmDeclaredSecrets } from './wasm-declared-secrets.js';

/** Tools whose `url` parameter may receive an injected credential. */
const CREDENTIAL_TOOLS = new Set(['http']);

/**
 * The loop's tool calls go through the dispatcher (validation, dispatch, output safety, audit). For
 * `http`, the host grants the stored secrets whose host patterns match the URL; the worker injects them
 * only into matching requests and redacts them from the output. For an installed WebAssembly tool with the
 * `use_secret` effect, the stored secrets its capabilities declare as credentials are granted, each only when
 * the secret's host patterns cover the hosts the tool declares for it (the runner injects only there).
 */
export class DispatcherToolCaller implements ToolCaller {
  constructor(
    private readonly dispatcher: ToolDispatcher,
    private readonly secrets: SecretStore,
    private readonly wasmSecrets?: WasmDeclaredSecrets,
  ) {}

  check(call: Pick<AgentToolCall, 'tool' | 'params'>): void {
    this.dispatcher.check({ tool: call.tool, params: call.params, actor: 'model' });
  }

  assessApproval(call: Pick<AgentToolCall, 'tool' | 'params'>) {
    return this.dispatcher.assessApproval(call.tool, { ...call.params });
  }

  async call(call: AgentToolCall): Promise<ToolsCallReply> {
    const url = call.params.url;
    const grants =
      CREDENTIAL_TOOLS.has(call.tool) && typeof url === 'string'
        ? await this.secrets.grantsForUrl(url)
        : await this.wasmSecrets?.grantsFor(call.tool, this.secrets);
    return this.dispatcher.call({
      tool: call.tool,
      params: call.params,
      sessionId: call.sessionId,
      callId: call.callId,
      actor: call.actor,
      signal: call.signal,
      ...(grants?.length ? { grants } : {}),
    });
  }
}
