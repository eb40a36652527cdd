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
 * `use_secret` effect, the stored secrets its capabilities declare are granted (the runner injects each only
 * into requests to that credential's declared hosts).
 */
export class DispatcherToolCaller implements ToolCaller {
  constructor(
    private readonly dispatcher: ToolDispatcher,
    private readonly secrets: SecretStore,
    private readonly wasmSecrets?: WasmDeclaredSecrets,
  ) {}

  async call(call: AgentToolCall): Promise<ToolsCallReply> {
    const url = call.params.url;
    const grants =
      CREDENTIAL_TOOLS.has(call.tool) && typeof url === 'string'
        ? await this.secrets.grantsForUrl(url)
        : this.wasmSecrets && (await this.secrets.grantsForNames(await this.wasmSecrets.namesFor(call.tool)));
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
