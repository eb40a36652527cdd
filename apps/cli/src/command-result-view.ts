import { formatTable } from './text-table.js';
import type { TerminalStyle } from './terminal-style.js';
import { timeInWords } from './time-in-words.js';

/** How a slash command's answer is laid out. */
export interface CommandResultViewOptions {
  style: TerminalStyle;
  /** The terminal's width; tables are cut to it. Default: no limit (piped output). */
  width?: number;
  /** Epoch milliseconds, for "2 minutes ago". Default `Date.now()`. */
  now?: number;
}

interface ToolRow {
  name: string;
  description?: string;
  approval?: string;
  effects?: string[];
}
interface SkillRow {
  name: string;
  description?: string;
  trust?: string;
  gating?: { eligible: boolean; reasons: string[] };
}
interface ApprovalRow {
  id: string;
  tool: string;
  params?: unknown;
  reason?: string;
  createdAt?: number;
}
interface CallOutcome {
  ok: boolean;
  content?: string;
  reply?: { output?: unknown; truncated?: boolean };
}

/** Longest cell text in a listing; whole descriptions are one `/call` or the console away. */
const CELL_MAX = 72;
/** Lines of a `/call` output shown before "… n more lines". */
const OUTPUT_LINES_MAX = 40;

/** Shortens text to one line of at most `max` characters. */
export function oneLine(value: unknown, max = CELL_MAX): string {
  const text = (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function table(rows: string[][], options: CommandResultViewOptions): string {
  return formatTable(rows, {
    header: (line) => options.style.bold(line),
    ...(options.width ? { maxWidth: options.width } : {}),
  });
}

function filtered(kind: string, count: number, filter: unknown): string {
  const noun = count === 1 ? kind.replace(/s$/, '') : kind;
  return typeof filter === 'string' ? `${count} ${noun} matching "${filter}"` : `${count} ${noun}`;
}

function tools(result: { tools?: ToolRow[]; filter?: string }, options: CommandResultViewOptions): string {
  const list = result.tools ?? [];
  const summary = options.style.dim(filtered('tools', list.length, result.filter));
  if (list.length === 0) return summary;
  return `${table(
    [
      ['TOOL', 'APPROVAL', 'EFFECTS', 'DESCRIPTION'],
      ...list.map((tool) => [
        tool.name,
        tool.approval ?? '',
        (tool.effects ?? []).join(',') || '-',
        oneLine(tool.description ?? ''),
      ]),
    ],
    options,
  )}\n${summary}`;
}

function skills(
  result: { skills?: SkillRow[]; rejected?: unknown[]; filter?: string },
  options: CommandResultViewOptions,
): string {
  const list = result.skills ?? [];
  const rejected = result.rejected?.length ?? 0;
  const summary = options.style.dim(
    filtered('skills', list.length, result.filter) + (rejected > 0 ? ` (${rejected} rejected)` : ''),
  );
  if (list.length === 0) return summary;
  return `${table(
    [
      ['SKILL', 'TRUST', 'STATUS', 'DESCRIPTION'],
      ...list.map((skill) => [
        skill.name,
        (skill.trust ?? '').toLowerCase(),
        skill.gating && !skill.gating.eligible
          ? oneLine(`gated: ${skill.gating.reasons.join('; ')}`, 40)
          : 'ready',
        oneLine(skill.description ?? ''),
      ]),
    ],
    options,
  )}\n${summary}`;
}

function approvals(result: { approvals?: ApprovalRow[] }, options: CommandResultViewOptions): string {
  const list = result.approvals ?? [];
  if (list.length === 0) return options.style.dim('no approvals waiting in this session');
  const now = options.now ?? Date.now();
  return `${table(
    [
      ['APPROVAL', 'TOOL', 'PARAMS', 'ASKED', 'REASON'],
      ...list.map((approval) => [
        approval.id,
        approval.tool,
        oneLine(approval.params ?? {}, 48),
        approval.createdAt ? timeInWords(new Date(approval.createdAt), new Date(now)) : '',
        oneLine(approval.reason ?? '', 48),
      ]),
    ],
    options,
  )}\n${options.style.dim(`${filtered('approvals', list.length, undefined)} waiting: answer in the console's inbox or with approvals.resolve`)}`;
}

function callOutput(result: CallOutcome): string | undefined {
  // A failed call is already said on its ✗ line.
  if (!result.ok) return undefined;
  const output = result.reply?.output ?? result.content;
  const text = typeof output === 'string' ? output : JSON.stringify(output, null, 2);
  const lines = (text ?? '').split('\n');
  const shown = lines.slice(0, OUTPUT_LINES_MAX).join('\n');
  return lines.length > OUTPUT_LINES_MAX
    ? `${shown}\n… ${lines.length - OUTPUT_LINES_MAX} more lines`
    : shown;
}

/** A slash command's answer as terminal text (tables for listings), or undefined when nothing is left to say. */
export function renderCommandResult(
  command: string,
  result: unknown,
  options: CommandResultViewOptions,
): string | undefined {
  const value = (result ?? {}) as Record<string, unknown>;
  switch (command) {
    case 'help':
      return String(value.help ?? '');
    case 'tools':
      return tools(value, options);
    case 'skills':
      return skills(value, options);
    case 'approvals':
      return approvals(value, options);
    case 'call':
      return callOutput(value as unknown as CallOutcome);
    default:
      return JSON.stringify(result, null, 2);
  }
}
