// CPU time of a process from /proc/<pid>/stat (Linux), and a wait for a process to fall quiet.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds (user + system) the process `pid` has used so far. */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces; the fields after it are fixed. utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Resolves once the process used at most `maxCpuMs` in one window of `windowMs`: a service that has just
 * announced itself may still be finishing its start, and a figure taken then measures that start too.
 */
export async function untilQuiet(pid, { windowMs = 100, maxCpuMs = 10, timeoutMs = 10_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = processCpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const now = processCpuMs(pid);
    if (now - last <= maxCpuMs) return;
    last = now;
  }
  throw new Error(`process ${pid} did not fall quiet within ${timeoutMs} ms`);
}
