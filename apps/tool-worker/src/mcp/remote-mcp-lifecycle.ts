import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { McpToolSource } from '@talon/mcp';
import type { McpControlHost } from '@talon/service-runtime';
import type { McpAuthorizeHost } from './mcp-authorize-host.js';
import { MCP_AUTHORIZE_HOST, MCP_CONTROL_HOST, MCP_TOOL_SOURCE } from './remote-mcp.constants.js';

/**
 * Connects to every remote server in the background once the worker runs (a slow or failing server does
 * not hold up boot; it shows as `down` with its error in `mcp.list` and reconnects with backoff).
 */
@Injectable()
export class RemoteMcpLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    @Inject(MCP_TOOL_SOURCE) private readonly source: McpToolSource,
    @Inject(MCP_CONTROL_HOST) private readonly control: McpControlHost,
    @Inject(MCP_AUTHORIZE_HOST) private readonly authorize: McpAuthorizeHost,
  ) {}

  onApplicationBootstrap(): void {
    this.control.start();
    this.authorize.start();
    void this.source.manager.discover();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.control.stop();
    this.authorize.stop();
    await this.source.close();
  }
}
