export { createDevTools } from './create-dev-tools.js';
export {
  DEFAULT_WORKSPACE_CAPS,
  parseWorkspaceOptions,
  type WorkspaceCaps,
  type WorkspaceOptions,
  type ResolvedWorkspaceOptions,
} from './workspace-options.js';
export { WorkspaceRoot, MAX_WORKSPACE_PATH_LENGTH, type WorkspacePath } from './workspace-root.js';
export {
  PathOutsideWorkspaceError,
  PATH_REFUSAL_REASONS,
  type PathRefusalReason,
} from './path-outside-workspace-error.js';
export { WorkspaceEntryNotFoundError } from './workspace-entry-not-found-error.js';
export { WorkspaceEntryTypeError } from './workspace-entry-type-error.js';
export { WorkspaceLimitExceededError } from './workspace-limit-exceeded-error.js';
export { InvalidToolParamsError } from './invalid-tool-params-error.js';
export { UnsafePatternError } from './unsafe-pattern-error.js';
export {
  PatchRejectedError,
  PATCH_REJECTION_REASONS,
  type PatchRejectionReason,
} from './patch-rejected-error.js';
export {
  ShellCommandRefusedError,
  SHELL_REFUSAL_REASONS,
  type ShellRefusalReason,
} from './shell-command-refused-error.js';
export {
  parseShellCommand,
  MAX_SHELL_COMMAND_LENGTH,
  type ParsedShellCommand,
  type ShellProgram,
  type ShellRedirect,
} from './shell-command-parser.js';
export {
  decideShellApproval,
  READ_ONLY_PROGRAMS,
  type ShellApprovalDecision,
} from './shell-approval-policy.js';
export { createShellTool, explainShellApproval, type ShellParams, type ShellOutput } from './shell-tool.js';
export { gitConfigRisks, neutralGitEnvironment, NEUTRAL_GIT_SETTINGS } from './git-config-risks.js';
export { optionExecutedCommands, type OptionExecutedCommand } from './option-executed-commands.js';
export { createReadFileTool, type ReadFileParams, type ReadFileOutput } from './read-file-tool.js';
export { createWriteFileTool, type WriteFileParams, type WriteFileOutput } from './write-file-tool.js';
export {
  createListDirTool,
  type ListDirParams,
  type ListDirOutput,
  type ListedEntry,
} from './list-dir-tool.js';
export { createGlobTool, type GlobParams, type GlobOutput } from './glob-tool.js';
export { createGrepTool, type GrepParams, type GrepOutput, type GrepMatch } from './grep-tool.js';
export { createApplyPatchTool, type ApplyPatchParams, type ApplyPatchOutput } from './apply-patch-tool.js';
export type { PatchedFileSummary, PatchOperation } from './patch-plan-builder.js';
