import { Controller, Get, Inject, Req, Res, type OnApplicationBootstrap } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ForbiddenError, UnauthenticatedError } from '@talon/auth';
import { HTTP_STATUS_BY_CODE, scopeAllows } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import type { Database } from '@talon/persistence';
import type { ToolCatalog } from '@talon/tool-runtime';
import { talonMetrics } from '@talon/telemetry';
import { DATABASE, TOOL_CATALOG } from '../config/orchestrator.constants.js';
import { principalOf } from '../api/http-front-door.js';

/**
 * `GET /metrics` in the Prometheus text format on the API port, behind the front door like every route:
 * a scraper sends `Authorization: Bearer <token>` with at least the `read` scope. Also points the scrape-time
 * gauges at the catalog (tools by source) and the approvals table (pending approvals).
 */
@Controller()
export class MetricsController implements OnApplicationBootstrap {
  constructor(
    @Inject(TOOL_CATALOG) private readonly catalog: ToolCatalog,
    @Inject(DATABASE) private readonly database: Database,
  ) {}

  onApplicationBootstrap(): void {
    const metrics = talonMetrics();
    metrics.catalogTools.observe(() => {
      const bySource: Record<string, number> = {};
      for (const entry of this.catalog.list()) {
        const source = entry.location === 'local' ? 'local' : entry.definition.domain;
        bySource[source] = (bySource[source] ?? 0) + 1;
      }
      return bySource;
    });
    // A scrape during shutdown may find the database closed: the gauge keeps its last value then.
    let lastPending = 0;
    metrics.approvalsPending.observe(async () => {
      lastPending = await this.database.prisma.approval
        .count({ where: { status: 'pending' } })
        .catch(() => lastPending);
      return lastPending;
    });
  }

  @Get('metrics')
  async scrape(@Req() request: Request, @Res() response: Response): Promise<void> {
    const principal = principalOf(request);
    try {
      if (!principal) throw new UnauthenticatedError('The scrape carries no verified token.');
      if (!scopeAllows(principal.scope, 'read'))
        throw new ForbiddenError('GET /metrics', 'read', principal.scope);
      const { registry } = talonMetrics();
      const body = await registry.metrics();
      response.status(200).setHeader('content-type', registry.contentType).send(body);
    } catch (error) {
      const wire = toWireError(error);
      response
        .status(HTTP_STATUS_BY_CODE[wire.code] ?? 500)
        .type('application/json')
        .send(JSON.stringify({ ok: false, error: wire }));
    }
  }
}
