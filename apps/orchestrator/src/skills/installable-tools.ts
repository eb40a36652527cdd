import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstallableTools } from '@talon/skills';

/**
 * The names the registry could add to the catalog: WebAssembly tools (`tools/*.json`, what `tool_install`
 * takes) and MCP server definitions (`mcp-servers/*.json`, what `mcp_start` takes). Read once at start;
 * unreadable files are skipped (the installers report them when they are used).
 */
export function loadInstallableTools(dirs: { toolsDir: string; mcpServersDir: string }): InstallableTools {
  return { wasm: namesIn(dirs.toolsDir), mcpServers: namesIn(dirs.mcpServersDir) };
}

function namesIn(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json') && !file.startsWith('_'));
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const file of files) {
    try {
      const entry = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { name?: unknown };
      if (typeof entry.name === 'string' && /^[a-z0-9][a-z0-9_-]{0,63}$/.test(entry.name)) names.push(entry.name);
    } catch {
      // Skipped: the installer names the broken file when someone tries to install from it.
    }
  }
  return names;
}
