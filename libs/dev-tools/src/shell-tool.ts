import type { ApprovalRequirement } from '@talon/contracts';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { runInProcessGroup, type ProcessRunResult } from './process-group-runner.js';
import { gitConfigRisks, neutralGitEnvironment } from './git-config-risks.js';
import { decideShellApproval, type ShellApprovalDecision } from './shell-approval-policy.js';
import { MAX_SHELL_COMMAND_LENGTH, parseShellCommand } from './shell-command-parser.js';
import { ToolParamReader } from './tool-param-reader.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';

/** The only PATH a shell command sees; nothing is inherited from the runner's environment. */
export const SHELL_PATH = '/usr/local/bin:/usr/bin:/bin';
/** Locale given to shell commands. */
export const SHELL_LANG = 'C.UTF-8';

/** Params of `shell`. */
export interface ShellParams {
  command: string;
  timeoutMs?: number;
}

/** Result of `shell`: the process outcome plus the programs the approval decision saw. */
export interface ShellOutput extends Omit<ProcessRunResult, 'aborted'> {
  programs: string[];
}

/**
 * `shell`: runs one command line with `/bin/sh -c` in the workspace root, with a clean environment
 * (PATH, HOME = the root, LANG), a timeout that stops the whole process group, and capped output.
 * Read-only commands (judged on the parsed programs) need no approval.
 */
export function createShellTool(options: WorkspaceOptions): Tool<ShellParams, ShellOutput> {
  const { root, caps } = parseWorkspaceOptions(options);
  return {
    definition: {
      name: 'shell',
      description:
        'Run one shell command line (POSIX sh) in the workspace directory and return exit code, stdout and stderr. ' +
        'The environment is clean (PATH, HOME, LANG only). One line only: line breaks are refused. Output is capped.',
      parameters: {
        type: 'object',
        properties: {
          command: {
            type: 'string',
            minLength: 1,
            maxLength: MAX_SHELL_COMMAND_LENGTH,
            description: 'The command line, on one line.',
          },
          timeoutMs: {
            type: 'integer',
            minimum: 100,
            maximum: caps.maxShellTimeoutMs,
            description: `Time limit in ms (default ${caps.shellTimeoutMs}).`,
          },
        },
        required: ['command'],
        additionalProperties: false,
      },
      effects: ['execute_code', 'spawn_process', 'read_filesystem', 'write_filesystem', 'delete_filesystem'],
      approval: 'unless_auto_approved',
      timeoutMs: Math.min(600_000, caps.maxShellTimeoutMs + caps.shellKillGraceMs + 1000),
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: false,
    },
    approvalFor(params: ShellParams): ApprovalRequirement {
      return explainShellApproval(root, params.command).approval;
    },
    explainApproval(params: ShellParams) {
      return explainShellApproval(root, params.command);
    },
    async execute(params: ShellParams, context: ToolContext): Promise<ShellOutput> {
      const reader = new ToolParamReader('shell', params);
      const command = reader.string('command', MAX_SHELL_COMMAND_LENGTH);
      const timeoutMs =
        reader.optionalInteger('timeoutMs', 100, caps.maxShellTimeoutMs) ?? caps.shellTimeoutMs;
      const parsed = parseShellCommand(command);
      const { aborted: _aborted, ...result } = await runInProcessGroup({
        command,
        cwd: root,
        // git runs with the settings that run programs switched off, whatever the workspace's .git/config says.
        env: { PATH: SHELL_PATH, HOME: root, LANG: SHELL_LANG, ...neutralGitEnvironment() },
        timeoutMs,
        maxOutputBytes: caps.maxShellOutputBytes,
        killGraceMs: caps.shellKillGraceMs,
        signal: context.signal,
      });
      return { ...result, programs: parsed.programs.map((program) => program.program) };
    },
  };
}

/**
 * The approval decision on a command line with its reasons and the programs it runs. git counts as
 * read-only only while the workspace's `.git/config` sets nothing that makes git run a program.
 * A command that cannot be parsed is refused by `execute`; asking a person is the answer here.
 */
export function explainShellApproval(root: string, command: string): ShellApprovalDecision {
  let decision: ShellApprovalDecision;
  try {
    decision = decideShellApproval(parseShellCommand(command));
  } catch (error) {
    return {
      approval: 'unless_auto_approved',
      reasons: [error instanceof Error ? error.message : String(error)],
      programs: [],
    };
  }
  if (decision.approval !== 'never' || !decision.programs.some((program) => /(^|\/)git\b/.test(program)))
    return decision;
  const risks = gitConfigRisks(root);
  if (risks.length === 0) return decision;
  return {
    ...decision,
    approval: 'unless_auto_approved',
    reasons: [`the workspace's git configuration can run programs (${risks.join(', ')})`],
  };
}
