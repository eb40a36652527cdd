import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HTTP_STATUS_BY_CODE, McpAuthorizeRequestSchema, type McpAuthorizeRequest } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { validatePayload } from '@talon/service-runtime';
import { McpAuthorizeMethod } from './mcp-authorize.method.js';

/**
 * `GET /mcp/oauth/callback/:server?code=…&state=…`: where an authorization server sends the person's
 * browser after they approved Talon (the default `TALON_MCP_OAUTH_REDIRECT_URL`). Same as `mcp.authorize`,
 * state check included; answers a short plain-text page and never echoes the code.
 */
@Controller('mcp/oauth/callback')
export class McpOAuthCallbackController {
  constructor(private readonly authorize: McpAuthorizeMethod) {}

  @Get(':server')
  async callback(
    @Param('server') server: string,
    @Query() query: Record<string, unknown>,
    @Res() response: Response,
  ): Promise<void> {
    response
      .type('text/plain; charset=utf-8')
      .set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    if (typeof query.error === 'string') {
      response
        .status(403)
        .send(
          `The authorization of MCP server "${server}" was not granted (${query.error}). Run mcp.start for a new authorization URL.\n`,
        );
      return;
    }
    try {
      const request = validatePayload<McpAuthorizeRequest>(
        McpAuthorizeRequestSchema,
        { server, code: query.code, state: query.state },
        'The OAuth callback',
      );
      const view = await this.authorize.handle(request, { surface: 'http' });
      response
        .status(200)
        .send(
          `MCP server "${view.name}" is authorized (${view.state}, ${view.toolCount} tools). You can close this page.\n`,
        );
    } catch (error) {
      const wire = toWireError(error);
      response.status(HTTP_STATUS_BY_CODE[wire.code] ?? 500).send(`${wire.code}: ${wire.message}\n`);
    }
  }
}
