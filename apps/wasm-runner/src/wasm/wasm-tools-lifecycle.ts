import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { ToolInstaller } from '@talon/wasm-host';
import type { DeclaredSecretsResponder } from './declared-secrets-responder.js';
import { DECLARED_SECRETS_RESPONDER, WASM_TOOL_INSTALLER } from './wasm-tools.constants.js';

/**
 * Answers declared-secrets requests once the app runs; before the process leaves, stops answering and stops
 * every component worker (after calls in flight). Installed state stays on disk.
 */
@Injectable()
export class WasmToolsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(WASM_TOOL_INSTALLER) private readonly installer: ToolInstaller,
    @Inject(DECLARED_SECRETS_RESPONDER) private readonly responder: DeclaredSecretsResponder,
  ) {}

  onApplicationBootstrap(): void {
    this.responder.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.responder.stop();
    await this.installer.close();
  }
}
