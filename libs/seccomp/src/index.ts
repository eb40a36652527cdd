export {
  parseSeccompProfile,
  SECCOMP_ACTIONS,
  SECCOMP_OPERATORS,
  type SeccompAction,
  type SeccompArgument,
  type SeccompOperator,
  type SeccompProfile,
  type SeccompRule,
} from './seccomp-profile.js';
export {
  compileSeccompProfile,
  seccompReturnValue,
  AUDIT_ARCH_X86_64,
  type CompiledSeccompFilter,
} from './seccomp-compiler.js';
export {
  parseSyscallTable,
  readX86_64SyscallTable,
  X86_64_SYSCALL_HEADER,
  type SyscallTable,
} from './syscall-table.js';
export { BpfAssembler, BPF, MAX_BPF_INSTRUCTIONS, type BpfLabel } from './bpf-assembler.js';
export { SeccompProfileError } from './errors/seccomp-profile-error.js';
