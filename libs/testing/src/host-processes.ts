import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live host processes whose command line contains `marker`, leaving out bubblewrap and setpriv (whose own
 * arguments name the command). A sandbox has its own pid namespace, so pids printed inside mean nothing
 * out here: tests find leftovers by what they run. `under` keeps only descendants of one host process
 * (a sandbox's bubblewrap), so tests running side by side do not see each other's processes.
 */
export function hostProcessesWith(marker: string, options: { under?: number } = {}): number[] {
  const found: number[] = [];
  const parents = new Map<number, number>();
  const candidates: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      if (fields[0] === 'Z') continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)(bwrap|setpriv)$/.test(argv[0] ?? '')) continue;
      if (argv.join(' ').includes(marker)) candidates.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number): boolean => {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current))
      if (current === options.under) return true;
    return false;
  };
  for (const pid of candidates) if (options.under === undefined || descends(pid)) found.push(pid);
  return found;
}

/** Waits until no host process matches `marker`; returns the ones still alive after `withinMs`. */
export async function waitUntilGone(marker: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (hostProcessesWith(marker).length === 0) return [];
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 25));
  }
  return hostProcessesWith(marker);
}
