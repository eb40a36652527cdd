import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { DeclaredSecretsResponder } from './declared-secrets-responder.js';
import type { WasmToolsRuntime } from './wasm-tools-runtime.js';
import { DECLARED_SECRETS_RESPONDER, WASM_TOOLS_RUNTIME } from './wasm-tools.constants.js';

/**
 * Once the app runs: answers declared-secrets requests and watches the registry folder (the shared installed
 * state is followed from start-up on). Before the process leaves: stops all three, then every component worker
 * (after calls in flight). Installed state stays in JetStream.
 */
@Injectable()
export class WasmToolsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(WASM_TOOLS_RUNTIME) private readonly runtime: WasmToolsRuntime,
    @Inject(DECLARED_SECRETS_RESPONDER) private readonly responder: DeclaredSecretsResponder,
  ) {}

  onApplicationBootstrap(): void {
    this.responder.start();
    this.runtime.registryWatcher.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.responder.stop();
    this.runtime.registryWatcher.stop();
    this.runtime.stopCatchingUp();
    await this.runtime.follower.stop();
    await this.runtime.records.close();
    await this.runtime.installer.close();
  }
}
