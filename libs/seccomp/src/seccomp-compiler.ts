import { BPF, BpfAssembler, type BpfLabel } from './bpf-assembler.js';
import { SeccompProfileError } from './errors/seccomp-profile-error.js';
import type { SeccompAction, SeccompArgument, SeccompProfile } from './seccomp-profile.js';
import type { SyscallTable } from './syscall-table.js';

/** `AUDIT_ARCH_X86_64` (linux/audit.h): the only architecture this compiler emits filters for. */
export const AUDIT_ARCH_X86_64 = 0xc000003e;
/** System call numbers with this bit set are the x32 ABI, which a profile for x86_64 never allows. */
const X32_SYSCALL_BIT = 0x40000000;
/** Offsets in `struct seccomp_data` (linux/seccomp.h). */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
const ARGS_OFFSET = 16;
/** Names without arguments share one return; a chunk keeps every jump to it within 255 instructions. */
const NAMES_PER_CHUNK = 200;
const EPERM = 1;

/** The compiled filter. */
export interface CompiledSeccompFilter {
  /** `struct sock_filter[]`, ready for `bwrap --seccomp FD` or `prctl(PR_SET_SECCOMP)`. */
  program: Buffer;
  /** Names of the profile this architecture has no number for; skipped, as Docker skips them. */
  unknownNames: string[];
}

/** The `SECCOMP_RET_*` value of an action (linux/seccomp.h). */
export function seccompReturnValue(action: SeccompAction, errnoRet: number = EPERM): number {
  switch (action) {
    case 'SCMP_ACT_ALLOW':
      return 0x7fff0000;
    case 'SCMP_ACT_ERRNO':
      return 0x00050000 | (errnoRet & 0xffff);
    case 'SCMP_ACT_KILL':
    case 'SCMP_ACT_KILL_THREAD':
      return 0x00000000;
    case 'SCMP_ACT_KILL_PROCESS':
      return 0x80000000;
    case 'SCMP_ACT_TRAP':
      return 0x00030000;
    case 'SCMP_ACT_LOG':
      return 0x7ffc0000;
  }
}

/**
 * Compiles a Docker-format profile to a classic BPF seccomp filter for x86_64. The program checks the
 * architecture (any other one, and the x32 ABI, get the default action), then tries the rules in order:
 * the first whose name and argument conditions match decides; nothing matched means the default action.
 * Arguments are compared as 64-bit values (two 32-bit halves). The rules are a linear list, as small
 * profiles are: a few hundred comparisons per system call at most.
 */
export function compileSeccompProfile(profile: SeccompProfile, table: SyscallTable): CompiledSeccompFilter {
  if (profile.architectures.length > 0 && !profile.architectures.includes('SCMP_ARCH_X86_64'))
    throw new SeccompProfileError(
      `the profile is for ${profile.architectures.join(', ')}; this compiler emits x86_64 filters only`,
    );
  const bpf = new BpfAssembler();
  const fallback = bpf.label();
  const unknownNames = new Set<string>();
  // The default action sits at the end, beyond a conditional jump's reach: leave through `JA`.
  const nativeArch = bpf.label();
  const nativeAbi = bpf.label();
  bpf.emit(BPF.LD_W_ABS, ARCH_OFFSET);
  bpf.emit(BPF.JEQ_K, AUDIT_ARCH_X86_64, nativeArch, 0);
  bpf.jump(fallback);
  bpf.place(nativeArch);
  bpf.emit(BPF.LD_W_ABS, NR_OFFSET);
  bpf.emit(BPF.JGE_K, X32_SYSCALL_BIT, 0, nativeAbi);
  bpf.jump(fallback);
  bpf.place(nativeAbi);
  for (const rule of profile.syscalls) {
    const numbers: number[] = [];
    for (const name of rule.names) {
      const nr = table.get(name);
      if (nr === undefined) unknownNames.add(name);
      else numbers.push(nr);
    }
    const value = seccompReturnValue(rule.action, rule.errnoRet);
    if (rule.args.length === 0) {
      for (let start = 0; start < numbers.length; start += NAMES_PER_CHUNK)
        matchAny(bpf, numbers.slice(start, start + NAMES_PER_CHUNK), value);
    } else {
      for (const nr of numbers) matchWithArguments(bpf, nr, rule.args, value);
    }
  }
  bpf.place(fallback);
  bpf.emit(BPF.RET_K, seccompReturnValue(profile.defaultAction, profile.defaultErrnoRet));
  return { program: bpf.assemble(), unknownNames: [...unknownNames] };
}

/** `A` holds the number: return `value` when it is one of `numbers`, else fall through. */
function matchAny(bpf: BpfAssembler, numbers: readonly number[], value: number): void {
  if (numbers.length === 0) return;
  const hit = bpf.label();
  const miss = bpf.label();
  for (const nr of numbers) bpf.emit(BPF.JEQ_K, nr, hit, 0);
  bpf.jump(miss);
  bpf.place(hit);
  bpf.emit(BPF.RET_K, value);
  bpf.place(miss);
}

/** `A` holds the number: return `value` when it is `nr` and every condition holds; `A` holds it again after. */
function matchWithArguments(
  bpf: BpfAssembler,
  nr: number,
  args: readonly SeccompArgument[],
  value: number,
): void {
  const otherCall = bpf.label();
  const failed = bpf.label();
  bpf.emit(BPF.JEQ_K, nr, 0, otherCall);
  for (const arg of args) compareArgument(bpf, arg, failed);
  bpf.emit(BPF.RET_K, value);
  bpf.place(failed);
  bpf.emit(BPF.LD_W_ABS, NR_OFFSET);
  bpf.place(otherCall);
}

/** Falls through when the condition holds, jumps to `failed` when it does not. */
function compareArgument(bpf: BpfAssembler, arg: SeccompArgument, failed: BpfLabel): void {
  const low = ARGS_OFFSET + 8 * arg.index;
  const high = low + 4;
  const hi = (v: bigint) => Number((v >> 32n) & 0xffffffffn);
  const lo = (v: bigint) => Number(v & 0xffffffffn);
  const held = bpf.label();
  switch (arg.op) {
    case 'SCMP_CMP_EQ':
      bpf.emit(BPF.LD_W_ABS, high);
      bpf.emit(BPF.JEQ_K, hi(arg.value), 0, failed);
      bpf.emit(BPF.LD_W_ABS, low);
      bpf.emit(BPF.JEQ_K, lo(arg.value), 0, failed);
      break;
    case 'SCMP_CMP_NE':
      bpf.emit(BPF.LD_W_ABS, high);
      bpf.emit(BPF.JEQ_K, hi(arg.value), 0, held);
      bpf.emit(BPF.LD_W_ABS, low);
      bpf.emit(BPF.JEQ_K, lo(arg.value), failed, 0);
      break;
    case 'SCMP_CMP_MASKED_EQ':
      bpf.emit(BPF.LD_W_ABS, high);
      bpf.emit(BPF.ALU_AND_K, hi(arg.value));
      bpf.emit(BPF.JEQ_K, hi(arg.valueTwo), 0, failed);
      bpf.emit(BPF.LD_W_ABS, low);
      bpf.emit(BPF.ALU_AND_K, lo(arg.value));
      bpf.emit(BPF.JEQ_K, lo(arg.valueTwo), 0, failed);
      break;
    case 'SCMP_CMP_GT':
    case 'SCMP_CMP_GE':
      // Above in the high half holds; equal there decides on the low half; below fails.
      bpf.emit(BPF.LD_W_ABS, high);
      bpf.emit(BPF.JGT_K, hi(arg.value), held, 0);
      bpf.emit(BPF.JEQ_K, hi(arg.value), 0, failed);
      bpf.emit(BPF.LD_W_ABS, low);
      bpf.emit(arg.op === 'SCMP_CMP_GT' ? BPF.JGT_K : BPF.JGE_K, lo(arg.value), 0, failed);
      break;
    case 'SCMP_CMP_LT':
    case 'SCMP_CMP_LE':
      // The negation of GE (for LT) or GT (for LE).
      bpf.emit(BPF.LD_W_ABS, high);
      bpf.emit(BPF.JGT_K, hi(arg.value), failed, 0);
      bpf.emit(BPF.JEQ_K, hi(arg.value), 0, held);
      bpf.emit(BPF.LD_W_ABS, low);
      bpf.emit(arg.op === 'SCMP_CMP_LT' ? BPF.JGE_K : BPF.JGT_K, lo(arg.value), failed, 0);
      break;
  }
  bpf.place(held);
}
