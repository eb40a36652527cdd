import { SeccompProfileError } from './errors/seccomp-profile-error.js';

/** What the kernel does with a system call (the names Docker's profile format uses). */
export const SECCOMP_ACTIONS = [
  'SCMP_ACT_ALLOW',
  'SCMP_ACT_ERRNO',
  'SCMP_ACT_KILL',
  'SCMP_ACT_KILL_THREAD',
  'SCMP_ACT_KILL_PROCESS',
  'SCMP_ACT_TRAP',
  'SCMP_ACT_LOG',
] as const;
export type SeccompAction = (typeof SECCOMP_ACTIONS)[number];

/** How an argument is compared with `value` (`SCMP_CMP_MASKED_EQ`: `(arg & value) == valueTwo`). */
export const SECCOMP_OPERATORS = [
  'SCMP_CMP_EQ',
  'SCMP_CMP_NE',
  'SCMP_CMP_LT',
  'SCMP_CMP_LE',
  'SCMP_CMP_GT',
  'SCMP_CMP_GE',
  'SCMP_CMP_MASKED_EQ',
] as const;
export type SeccompOperator = (typeof SECCOMP_OPERATORS)[number];

/** One condition on a system call argument; the conditions of one rule must all hold. */
export interface SeccompArgument {
  /** Argument position, 0 to 5. */
  index: number;
  value: bigint;
  /** Only for `SCMP_CMP_MASKED_EQ`: the value the masked argument must equal. */
  valueTwo: bigint;
  op: SeccompOperator;
}

/** One rule: these system calls get `action` when every argument condition holds. */
export interface SeccompRule {
  names: string[];
  action: SeccompAction;
  /** The errno for `SCMP_ACT_ERRNO` (default EPERM). */
  errnoRet?: number;
  args: SeccompArgument[];
  comment?: string;
}

/** A profile in Docker's JSON format, restricted to what {@link compileSeccompProfile} supports. */
export interface SeccompProfile {
  defaultAction: SeccompAction;
  defaultErrnoRet?: number;
  /** `SCMP_ARCH_*` names the profile was written for. */
  architectures: string[];
  syscalls: SeccompRule[];
}

const PROFILE_KEYS = new Set(['defaultAction', 'defaultErrnoRet', 'architectures', 'syscalls', 'comment']);
const RULE_KEYS = new Set(['names', 'name', 'action', 'errnoRet', 'args', 'comment']);

/**
 * Reads a profile in Docker's format (`docker run --security-opt seccomp=<file>`). Capability and kernel
 * conditions (`includes`/`excludes`), `archMap`, `listenerPath` and `flags` are refused rather than
 * ignored, so a profile never compiles to something looser than it reads.
 */
export function parseSeccompProfile(value: unknown): SeccompProfile {
  const profile = record(value, 'the profile');
  for (const key of Object.keys(profile))
    if (!PROFILE_KEYS.has(key)) throw new SeccompProfileError(`profile field "${key}" is not supported`);
  const syscalls = profile.syscalls;
  if (!Array.isArray(syscalls)) throw new SeccompProfileError('profile field "syscalls" must be an array');
  const architectures = profile.architectures ?? [];
  if (!Array.isArray(architectures) || !architectures.every((arch) => typeof arch === 'string'))
    throw new SeccompProfileError('profile field "architectures" must be an array of SCMP_ARCH_* names');
  return {
    defaultAction: action(profile.defaultAction, 'defaultAction'),
    ...(profile.defaultErrnoRet !== undefined
      ? { defaultErrnoRet: errno(profile.defaultErrnoRet, 'defaultErrnoRet') }
      : {}),
    architectures: architectures as string[],
    syscalls: syscalls.map((rule, index) => parseRule(rule, `syscalls[${index}]`)),
  };
}

function parseRule(value: unknown, where: string): SeccompRule {
  const rule = record(value, where);
  for (const key of Object.keys(rule))
    if (!RULE_KEYS.has(key)) throw new SeccompProfileError(`${where}: field "${key}" is not supported`);
  const names = rule.names ?? (rule.name === undefined ? undefined : [rule.name]);
  if (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === 'string'))
    throw new SeccompProfileError(`${where}: "names" must be a non-empty array of system call names`);
  const args = rule.args ?? [];
  if (!Array.isArray(args)) throw new SeccompProfileError(`${where}: "args" must be an array`);
  return {
    names: names as string[],
    action: action(rule.action, `${where}.action`),
    ...(rule.errnoRet !== undefined ? { errnoRet: errno(rule.errnoRet, `${where}.errnoRet`) } : {}),
    args: args.map((arg, index) => parseArgument(arg, `${where}.args[${index}]`)),
    ...(typeof rule.comment === 'string' ? { comment: rule.comment } : {}),
  };
}

function parseArgument(value: unknown, where: string): SeccompArgument {
  const arg = record(value, where);
  const index = arg.index;
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 5)
    throw new SeccompProfileError(`${where}: "index" must be 0 to 5`);
  if (!SECCOMP_OPERATORS.includes(arg.op as SeccompOperator))
    throw new SeccompProfileError(`${where}: "op" must be one of ${SECCOMP_OPERATORS.join(', ')}`);
  return {
    index,
    value: unsigned64(arg.value, `${where}.value`),
    valueTwo: unsigned64(arg.valueTwo ?? 0, `${where}.valueTwo`),
    op: arg.op as SeccompOperator,
  };
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SeccompProfileError(`${where} must be a JSON object`);
  return value as Record<string, unknown>;
}

function action(value: unknown, where: string): SeccompAction {
  if (!SECCOMP_ACTIONS.includes(value as SeccompAction))
    throw new SeccompProfileError(`${where} must be one of ${SECCOMP_ACTIONS.join(', ')}`);
  return value as SeccompAction;
}

function errno(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 4095)
    throw new SeccompProfileError(`${where} must be an errno number from 1 to 4095`);
  return value;
}

function unsigned64(value: unknown, where: string): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new SeccompProfileError(`${where} must be a non-negative integer below 2^53`);
  return BigInt(value);
}
