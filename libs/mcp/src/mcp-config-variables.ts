import { McpConfigError } from './errors/mcp-config-error.js';

/**
 * Values for `${NAME}` placeholders in server definitions. The loader's caller decides what exists;
 * the usual set is `TALON_ROOT` (the repository or install root, so `node_modules/...` paths are portable),
 * `TALON_WORKSPACE` (the workspace root a filesystem server may see) and `TALON_DATA_DIR`.
 */
export type ConfigVariables = Readonly<Record<string, string>>;

/**
 * Replaces every `${NAME}` in `value`. An unknown name is an error, never an empty string, so a typo
 * cannot turn `${TALON_WORKSPACE}` into `/` for a filesystem server. `$${NAME}` keeps a literal `${NAME}`.
 */
export function expandConfigVariables(value: string, variables: ConfigVariables, field: string): string {
  return value.replace(
    /(\$?)\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g,
    (match: string, escape: string, name: string) => {
      if (escape) return match.slice(1);
      const replacement = variables[name];
      if (replacement === undefined) {
        throw new McpConfigError(
          `${field} uses \${${name}}, which is not defined; known variables: ${Object.keys(variables).join(', ') || 'none'}.`,
          { details: { field, variable: name } },
        );
      }
      return replacement;
    },
  );
}

/** Where Talon is installed and where it keeps data; used to build the standard variables. */
export interface StandardVariableRoots {
  /** The repository or install root (holds `node_modules`). */
  root: string;
  /** The workspace root a filesystem-like server may see. */
  workspace: string;
  /** A directory for server data (e.g. the memory server's file). */
  dataDir: string;
}

/**
 * The variables registry files may use: `NODE` (this Node binary, so no PATH lookup decides which
 * `node` runs), `TALON_ROOT`, `TALON_WORKSPACE`, `TALON_DATA_DIR`.
 */
export function standardConfigVariables(roots: StandardVariableRoots): ConfigVariables {
  return {
    NODE: process.execPath,
    TALON_ROOT: roots.root,
    TALON_WORKSPACE: roots.workspace,
    TALON_DATA_DIR: roots.dataDir,
  };
}
