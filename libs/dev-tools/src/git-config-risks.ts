import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GIT_PROGRAM_KEYS } from './option-executed-commands.js';

/**
 * Settings git reads from the command line above any repository config (`GIT_CONFIG_COUNT`, git ≥ 2.31),
 * given to every shell command: the fixed-name settings that run programs are switched off. Settings with
 * a driver or alias name in them (`diff.<driver>.textconv`, `filter.<driver>.process`, `alias.*`) cannot be
 * overridden this way: {@link gitConfigRisks} makes a person approve git while the workspace sets any.
 */
export const NEUTRAL_GIT_SETTINGS: Readonly<Record<string, string>> = {
  'core.fsmonitor': 'false',
  'core.hooksPath': '/dev/null',
  'core.pager': 'cat',
  'core.editor': 'false',
  'core.sshCommand': 'false',
  'core.askPass': '',
  'core.gitProxy': '',
  'diff.external': '',
  'sequence.editor': 'false',
  'credential.helper': '',
  'gpg.program': 'false',
};

/** The environment that carries {@link NEUTRAL_GIT_SETTINGS}, plus no pager, no editor, no prompt. */
export function neutralGitEnvironment(): Record<string, string> {
  const entries = Object.entries(NEUTRAL_GIT_SETTINGS);
  const env: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_COUNT: String(entries.length),
  };
  entries.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * The settings of the workspace's `.git/config` that make git run a program (`core.fsmonitor`,
 * `diff.<driver>.textconv`, `alias.*`, `include.path`, …), as `section.key` names; a `.git` that is a file
 * (a worktree or a gitdir pointer elsewhere) or a config that cannot be read is a risk as well.
 */
export function gitConfigRisks(root: string): string[] {
  const gitPath = join(root, '.git');
  let isDirectory: boolean;
  try {
    isDirectory = statSync(gitPath).isDirectory();
  } catch {
    return [];
  }
  if (!isDirectory) return ['.git points to a git directory elsewhere'];
  let text: string;
  try {
    text = readFileSync(join(gitPath, 'config'), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : ['.git/config cannot be read'];
  }
  const risks = new Set<string>();
  let section = '';
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section =
        header[2] === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()}.${header[2]}`;
      if (header[3] === '') continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$)/.exec(header ? header[3]! : line)?.[1];
    if (!key) continue;
    const name = `${section}.${key.toLowerCase()}`;
    if (GIT_PROGRAM_KEYS.test(name)) risks.add(name);
  }
  return [...risks];
}
