import type { ApprovalRequirement, SandboxProfile } from '@talon/contracts';
import { sandboxProfile, SANDBOX_PATH } from '@talon/sandbox';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { runInProcessGroup, type ProcessRunResult } from './process-group-runner.js';
import { gitConfigRisks, neutralGitEnvironment } from './git-config-risks.js';
import { decideShellApproval, type ShellApprovalDecision } from './shell-approval-policy.js';
import { MAX_SHELL_COMMAND_LENGTH, parseShellCommand } from './shell-command-parser.js';
import { ToolParamReader } from './tool-param-reader.js';
import { parseWorkspaceOptions, type WorkspaceOptions } from './workspace-options.js';

/** The only PATH a shell command sees; nothing is inherited from the runner's environment. */
export const SHELL_PATH = SANDBOX_PATH;
/** Locale given to shell commands. */
export const SHELL_LANG = 'C.UTF-8';
/** Most hosts one `shell` call may be granted through the egress proxy. */
export const MAX_SHELL_NETWORK_HOSTS = 16;
const HOST_PATTERN = '^(\\*\\.)?[a-zA-Z0-9.-]+(:[0-9]{1,5})?$';

/** Params of `shell`. */
export interface ShellParams {
  command: string;
  timeoutMs?: number;
  /** Hosts the command may reach through Talon's egress proxy; none by default (no network at all). */
  networkHosts?: string[];
}

/** Result of `shell`: the process outcome plus the programs the approval decision saw. */
export interface ShellOutput extends Omit<ProcessRunResult, 'aborted'> {
  programs: string[];
  /** Whether the command ran in the bubblewrap sandbox (false only with `TALON_SANDBOX=off`). */
  sandboxed: boolean;
}

/**
 * `shell`: runs one command line with `/bin/sh -c` in the workspace root inside the sandbox (read-only
 * system, the workspace writable, private `/tmp`, no network unless `networkHosts` grants hosts through the
 * egress proxy, resource limits), with a clean environment, a timeout that stops the whole sandbox, and
 * capped output. Read-only commands (judged on the parsed programs) need no approval; a network grant does.
 */
export function createShellTool(options: WorkspaceOptions): Tool<ShellParams, ShellOutput> {
  const { root, caps, sandbox } = parseWorkspaceOptions(options);
  const profileFor = (networkHosts: readonly string[] | undefined): SandboxProfile =>
    sandboxProfile({
      writePaths: [root],
      ...(networkHosts && networkHosts.length > 0
        ? { network: { mode: 'proxy', hosts: [...networkHosts] } }
        : {}),
    });
  return {
    definition: {
      name: 'shell',
      description:
        'Run one shell command line (POSIX sh) in the workspace directory, inside a sandbox, and return exit code, stdout and stderr. ' +
        'Only the workspace is writable; there is no network unless `networkHosts` lists the hosts needed (then HTTP(S) goes through a proxy that allows only those). ' +
        'The environment is clean (PATH, HOME=/tmp, LANG). One line only: line breaks are refused. Output is capped.',
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
          networkHosts: {
            type: 'array',
            items: { type: 'string', pattern: HOST_PATTERN, maxLength: 253 },
            maxItems: MAX_SHELL_NETWORK_HOSTS,
            description:
              'Hosts (e.g. registry.npmjs.org, *.github.com) the command may reach over HTTP(S) through the proxy. Needs approval.',
          },
        },
        required: ['command'],
        additionalProperties: false,
      },
      effects: [
        'execute_code',
        'spawn_process',
        'read_filesystem',
        'write_filesystem',
        'delete_filesystem',
        'network',
      ],
      approval: 'unless_auto_approved',
      timeoutMs: Math.min(600_000, caps.maxShellTimeoutMs + caps.shellKillGraceMs + 1000),
      domain: 'container',
      source: 'builtin',
      sensitiveParams: [],
      idempotent: false,
      sandbox: profileFor(undefined),
    },
    approvalFor(params: ShellParams): ApprovalRequirement {
      // A network grant is never auto-decided by the command's programs: a person sees the hosts.
      if (Array.isArray(params.networkHosts) && params.networkHosts.length > 0) return 'unless_auto_approved';
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
      const networkHosts = reader.optionalStringList('networkHosts', MAX_SHELL_NETWORK_HOSTS);
      const parsed = parseShellCommand(command);
      const spawn = await sandbox.prepare({
        what: 'shell',
        profile: profileFor(networkHosts),
        argv: ['/bin/sh', '-c', command],
        cwd: root,
        setsIdentity: true,
        // git runs with the settings that run programs switched off, whatever the workspace's .git/config says.
        env: neutralGitEnvironment(),
      });
      try {
        const { aborted: _aborted, ...result } = await runInProcessGroup({
          program: spawn.file,
          args: spawn.args,
          cwd: spawn.sandboxed ? spawn.cwd : root,
          env: spawn.env,
          ...(spawn.uid === undefined ? {} : { uid: spawn.uid }),
          ...(spawn.gid === undefined ? {} : { gid: spawn.gid }),
          timeoutMs,
          maxOutputBytes: caps.maxShellOutputBytes,
          killGraceMs: caps.shellKillGraceMs,
          signal: context.signal,
        });
        return {
          ...result,
          programs: parsed.programs.map((program) => program.program),
          sandboxed: spawn.sandboxed,
        };
      } finally {
        await spawn.dispose();
      }
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
