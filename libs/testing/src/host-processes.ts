import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live host processes whose command line contains `marker`, leaving out bubblewrap and setpriv (whose own
 * arguments name the command). A sandbox has its own pid namespace, so pids printed inside mean nothing
 * out here: tests find leftovers by what they run.
 */
export function hostProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (/(^|\/)(bwrap|setpriv)$/.test(argv[0] ?? '')) continue;
      if (argv.join(' ').includes(marker)) found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
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
