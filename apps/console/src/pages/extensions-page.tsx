import type { McpViewListReply } from '@talon/contracts';
import { useCall } from '../api/use-call.js';
import { ActionButton } from '../components/action-button.js';
import { ErrorBanner } from '../components/error-banner.js';

interface InstalledTool {
  name: string;
  display_name: string;
  version: string;
  sha256: string;
  effects: string[];
  description: string;
}
interface RegistryHit {
  name: string;
  display_name: string;
  version: string;
  description: string;
  installed: boolean;
}

/** MCP servers (state, tools, start/stop, OAuth) and WebAssembly tools (registry, install, upgrade, remove). */
export function ExtensionsPage() {
  const servers = useCall<McpViewListReply>('mcp.list', {}, 5_000);
  const installed = useCall<{ tools: InstalledTool[] }>('tools.installed', {});
  const registry = useCall<{ results: RegistryHit[] }>('tools.search', { query: 'tool', limit: 50 });
  const refresh = () => (installed.reload(), registry.reload());
  return (
    <section aria-labelledby="extensions-title">
      <h1 id="extensions-title">MCP servers</h1>
      <ErrorBanner error={servers.error} />
      <table>
        <thead>
          <tr>
            <th>server</th>
            <th>domain</th>
            <th>source</th>
            <th>state</th>
            <th>tools</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {servers.data?.servers.map((server) => (
            <tr key={`${server.domain}:${server.name}`}>
              <td>
                {server.displayName} <span className="muted">{server.transport}</span>
                {server.lastError && <p className="muted">{server.lastError}</p>}
              </td>
              <td>{server.domain}</td>
              <td title={server.source === 'api' ? 'added with mcp.add' : 'from a config file'}>
                {server.source ?? 'file'}
              </td>
              <td>
                <span className={`pill ${server.state}`}>{server.state}</span>
              </td>
              <td>{server.tools.join(', ') || server.toolCount}</td>
              <td>
                <ActionButton method="mcp.start" payload={{ server: server.name }} onDone={servers.reload}>
                  Start
                </ActionButton>
                <ActionButton method="mcp.stop" payload={{ server: server.name }} onDone={servers.reload}>
                  Stop
                </ActionButton>
                {server.source === 'api' && (
                  <ActionButton method="mcp.remove" payload={{ server: server.name }} onDone={servers.reload}>
                    Remove
                  </ActionButton>
                )}
                {server.authorizationUrl && (
                  <a
                    className="button"
                    href={server.authorizationUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    Authorise
                  </a>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h1>WASM tools</h1>
      <ErrorBanner error={installed.error ?? registry.error} />
      <h2>Installed</h2>
      <table>
        <tbody>
          {installed.data?.tools.map((tool) => (
            <tr key={tool.name}>
              <td>
                {tool.display_name} <span className="muted">{tool.version}</span>
              </td>
              <td>{tool.effects.join(', ') || 'no effects'}</td>
              <td className="muted">{tool.sha256.slice(0, 12)}</td>
              <td>
                <ActionButton method="tools.upgrade" payload={{ name: tool.name }} onDone={refresh}>
                  Upgrade
                </ActionButton>
                <ActionButton method="tools.remove" payload={{ name: tool.name }} onDone={refresh}>
                  Remove
                </ActionButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Registry</h2>
      <table>
        <tbody>
          {registry.data?.results.map((hit) => (
            <tr key={hit.name}>
              <td>
                {hit.display_name} <span className="muted">{hit.version}</span>
              </td>
              <td>{hit.description}</td>
              <td>
                {hit.installed ? (
                  <span className="muted">installed</span>
                ) : (
                  <ActionButton method="tools.install" payload={{ name: hit.name }} onDone={refresh}>
                    Install
                  </ActionButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
