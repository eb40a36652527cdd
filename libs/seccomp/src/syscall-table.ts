import { readFileSync } from 'node:fs';

/** Where Debian's linux-libc-dev keeps the x86_64 system call numbers. */
export const X86_64_SYSCALL_HEADER = '/usr/include/x86_64-linux-gnu/asm/unistd_64.h';

/** System call name to number, for one architecture. */
export type SyscallTable = ReadonlyMap<string, number>;

/** Reads `#define __NR_<name> <number>` lines of a kernel `unistd_64.h`. */
export function parseSyscallTable(header: string): SyscallTable {
  const table = new Map<string, number>();
  for (const match of header.matchAll(/^#define __NR_([a-z0-9_]+)\s+(\d+)\s*$/gm))
    table.set(match[1], Number(match[2]));
  return table;
}

/** The x86_64 table of this machine's kernel headers. */
export function readX86_64SyscallTable(path: string = X86_64_SYSCALL_HEADER): SyscallTable {
  return parseSyscallTable(readFileSync(path, 'utf8'));
}
