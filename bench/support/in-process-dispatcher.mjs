// The orchestrator's dispatcher and catalog, built in this process from the compiled app, so a
// benchmark measures the dispatch path without the API hop in front of it.
import { connect } from '@nats-io/transport-node';
import { join } from 'node:path';
import { REPO_ROOT } from './processes.mjs';

const { ToolDispatcher } = await import(join(REPO_ROOT, 'apps/orchestrator/dist/tools/tool-dispatcher.js'));
const { CatalogSync } = await import(join(REPO_ROOT, 'apps/orchestrator/dist/tools/catalog-sync.js'));
const { ToolCatalog } = await import(join(REPO_ROOT, 'libs/tool-runtime/dist/index.js'));
const { createOutputSafety } = await import(join(REPO_ROOT, 'libs/safety/dist/index.js'));
const { NatsRequester, JsonLogger, ToolCallRequester } = await import(
  join(REPO_ROOT, 'libs/service-runtime/dist/index.js')
);

/**
 * Connects (as the orchestrator's NATS user of a test server), syncs a catalog and returns a ready
 * dispatcher (`audit`: an AuditLog). `failover: false` sends calls as plain requests, without the
 * acknowledgement and probes (the mechanism before failover), for a side-by-side comparison.
 */
export async function createInProcessDispatcher(nats, { audit, failover = true } = {}) {
  const connection =
    typeof nats === 'string' ? await connect({ servers: nats }) : await nats.connect('orchestrator');
  const catalog = new ToolCatalog();
  const logger = new JsonLogger({ service: 'orchestrator', instanceId: 'bench' }, 'error');
  const sync = new CatalogSync(connection, catalog, logger);
  await sync.start();
  const toolCalls = failover ? new ToolCallRequester(connection) : undefined;
  const dispatcher = new ToolDispatcher({
    catalog,
    requester: new NatsRequester(connection),
    ...(toolCalls ? { toolCalls } : {}),
    safety: createOutputSafety(),
    ...(audit ? { audit } : {}),
  });
  return {
    connection,
    catalog,
    dispatcher,
    async waitForInstances(tool, count, timeoutMs = 15000) {
      const started = Date.now();
      while ((catalog.get(tool)?.instances.size ?? 0) !== count) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`${tool}: ${count} instances not seen in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      toolCalls?.stop();
      sync.stop();
      await connection.close();
    },
  };
}
