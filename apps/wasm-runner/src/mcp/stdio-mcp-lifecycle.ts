import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { McpToolSource } from '@talon/mcp';
import type { McpControlHost } from '@talon/service-runtime';
import { MCP_CONTROL_HOST, MCP_TOOL_SOURCE } from './stdio-mcp.constants.js';

/** Answers MCP control once the app runs; stops every MCP server before the process leaves. */
@Injectable()
export class StdioMcpLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(MCP_TOOL_SOURCE) private readonly source: McpToolSource,
    @Inject(MCP_CONTROL_HOST) private readonly control: McpControlHost,
  ) {}

  onApplicationBootstrap(): void {
    this.control.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.control.stop();
    await this.source.close();
  }
}
