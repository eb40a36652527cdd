import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ToolInstaller } from '@talon/wasm-host';
import { WASM_TOOL_INSTALLER } from './wasm-tools.constants.js';

/** Stops every component worker (after calls in flight) before the process leaves; installed state stays on disk. */
@Injectable()
export class WasmToolsLifecycle implements BeforeApplicationShutdown {
  constructor(@Inject(WASM_TOOL_INSTALLER) private readonly installer: ToolInstaller) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.installer.close();
  }
}
