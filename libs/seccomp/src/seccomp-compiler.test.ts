import { describe, expect, it } from '@jest/globals';
import { BPF } from './bpf-assembler.js';
import { AUDIT_ARCH_X86_64, compileSeccompProfile, seccompReturnValue } from './seccomp-compiler.js';
import { parseSeccompProfile } from './seccomp-profile.js';
import { parseSyscallTable } from './syscall-table.js';

const TABLE = parseSyscallTable(
  ['#define __NR_read 0', '#define __NR_write 1', '#define __NR_clone 56', '#define __NR_personality 135']
    .concat(Array.from({ length: 450 }, (_, i) => `#define __NR_filler${i} ${1000 + i}`))
    .join('\n'),
);
const ALLOW = seccompReturnValue('SCMP_ACT_ALLOW');
const EPERM = seccompReturnValue('SCMP_ACT_ERRNO');

interface Call {
  nr: number;
  arch?: number;
  args?: bigint[];
}

/** Runs a classic BPF seccomp program the way the kernel does, on one `struct seccomp_data`. */
function run(program: Buffer, call: Call): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch ?? AUDIT_ARCH_X86_64, 4);
  (call.args ?? []).forEach((arg, index) => data.writeBigUInt64LE(arg, 16 + 8 * index));
  let a = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === BPF.LD_W_ABS) a = data.readUInt32LE(k);
    else if (code === BPF.ALU_AND_K) a = (a & k) >>> 0;
    else if (code === BPF.JA) pc += k;
    else if (code === BPF.JEQ_K) pc += a === k ? jt : jf;
    else if (code === BPF.JGT_K) pc += a > k ? jt : jf;
    else if (code === BPF.JGE_K) pc += a >= k ? jt : jf;
    else if (code === BPF.RET_K) return k;
    else throw new Error(`unknown opcode ${code}`);
  }
  throw new Error('the program ran off its end');
}

const compile = (syscalls: unknown[], extra: Record<string, unknown> = {}) =>
  compileSeccompProfile(parseSeccompProfile({ defaultAction: 'SCMP_ACT_ERRNO', syscalls, ...extra }), TABLE);

describe('compileSeccompProfile', () => {
  it('allows the listed calls and gives every other call, architecture and the x32 ABI the default', () => {
    const { program, unknownNames } = compile([
      { names: ['read', 'write', 'no_such_call'], action: 'SCMP_ACT_ALLOW' },
    ]);
    expect(unknownNames).toEqual(['no_such_call']);
    expect(run(program, { nr: 0 })).toBe(ALLOW);
    expect(run(program, { nr: 1 })).toBe(ALLOW);
    expect(run(program, { nr: 56 })).toBe(EPERM);
    expect(run(program, { nr: 0, arch: 0x40000003 /* i386 */ })).toBe(EPERM);
    expect(run(program, { nr: 0x40000000 })).toBe(EPERM);
  });

  it('keeps every jump in range when one rule names hundreds of calls', () => {
    const names = [...TABLE.keys()];
    const { program } = compile([{ names, action: 'SCMP_ACT_ALLOW' }]);
    for (const nr of TABLE.values()) expect(run(program, { nr })).toBe(ALLOW);
    expect(run(program, { nr: 999 })).toBe(EPERM);
  });

  it('refuses a profile written for other architectures only', () => {
    expect(() => compile([], { architectures: ['SCMP_ARCH_AARCH64'] })).toThrow('x86_64 filters only');
    expect(() => compile([], { architectures: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86'] })).not.toThrow();
  });

  it('uses the rule errno and the default errno', () => {
    const { program } = compile([{ names: ['clone'], action: 'SCMP_ACT_ERRNO', errnoRet: 38 }], {
      defaultErrnoRet: 13,
    });
    expect(run(program, { nr: 56 })).toBe(0x00050000 | 38);
    expect(run(program, { nr: 0 })).toBe(0x00050000 | 13);
  });

  it('masks an argument (clone without namespace flags) and falls through to later rules', () => {
    const namespaces = 0x7e020000;
    const { program } = compile([
      {
        names: ['clone'],
        action: 'SCMP_ACT_ALLOW',
        args: [{ index: 0, value: namespaces, valueTwo: 0, op: 'SCMP_CMP_MASKED_EQ' }],
      },
      { names: ['read'], action: 'SCMP_ACT_ALLOW' },
    ]);
    expect(run(program, { nr: 56, args: [0x01200011n] })).toBe(ALLOW);
    expect(run(program, { nr: 56, args: [0x10000000n /* CLONE_NEWUSER */] })).toBe(EPERM);
    expect(run(program, { nr: 56, args: [0x1_0000_0000n] })).toBe(ALLOW);
    expect(run(program, { nr: 0 })).toBe(ALLOW);
  });

  it('compares 64-bit values across both halves with every operator', () => {
    const at = 0x1_0000_0005;
    const cases: Record<string, (arg: bigint) => boolean> = {
      SCMP_CMP_EQ: (arg) => arg === BigInt(at),
      SCMP_CMP_NE: (arg) => arg !== BigInt(at),
      SCMP_CMP_LT: (arg) => arg < BigInt(at),
      SCMP_CMP_LE: (arg) => arg <= BigInt(at),
      SCMP_CMP_GT: (arg) => arg > BigInt(at),
      SCMP_CMP_GE: (arg) => arg >= BigInt(at),
    };
    const probes = [
      0n,
      5n,
      6n,
      0x1_0000_0004n,
      0x1_0000_0005n,
      0x1_0000_0006n,
      0x2_0000_0000n,
      0xffff_ffff_ffff_ffffn,
    ];
    for (const [op, holds] of Object.entries(cases)) {
      const { program } = compile([
        { names: ['personality'], action: 'SCMP_ACT_ALLOW', args: [{ index: 2, value: at, op }] },
      ]);
      for (const probe of probes)
        expect([op, probe, run(program, { nr: 135, args: [0n, 0n, probe] })]).toEqual([
          op,
          probe,
          holds(probe) ? ALLOW : EPERM,
        ]);
    }
  });

  it('requires every condition of one rule', () => {
    const { program } = compile([
      {
        names: ['personality'],
        action: 'SCMP_ACT_ALLOW',
        args: [
          { index: 0, value: 1, op: 'SCMP_CMP_EQ' },
          { index: 1, value: 2, op: 'SCMP_CMP_EQ' },
        ],
      },
    ]);
    expect(run(program, { nr: 135, args: [1n, 2n] })).toBe(ALLOW);
    expect(run(program, { nr: 135, args: [1n, 3n] })).toBe(EPERM);
    expect(run(program, { nr: 135, args: [0n, 2n] })).toBe(EPERM);
  });
});

describe('parseSeccompProfile', () => {
  it('refuses what it would otherwise have to ignore', () => {
    expect(() =>
      parseSeccompProfile({
        defaultAction: 'SCMP_ACT_ERRNO',
        syscalls: [{ names: ['read'], action: 'SCMP_ACT_ALLOW', includes: { caps: ['CAP_SYS_ADMIN'] } }],
      }),
    ).toThrow('syscalls[0]: field "includes" is not supported');
    expect(() => parseSeccompProfile({ defaultAction: 'SCMP_ACT_ERRNO', archMap: [], syscalls: [] })).toThrow(
      'profile field "archMap" is not supported',
    );
    expect(() => parseSeccompProfile({ defaultAction: 'SCMP_ACT_NOTIFY', syscalls: [] })).toThrow(
      'defaultAction must be one of',
    );
    expect(() =>
      parseSeccompProfile({
        defaultAction: 'SCMP_ACT_ERRNO',
        syscalls: [
          { names: ['read'], action: 'SCMP_ACT_ALLOW', args: [{ index: 6, value: 0, op: 'SCMP_CMP_EQ' }] },
        ],
      }),
    ).toThrow('"index" must be 0 to 5');
  });
});

describe('parseSyscallTable', () => {
  it('reads the numbers of a kernel header', () => {
    const table = parseSyscallTable(
      '#ifndef X\n#define __NR_read 0\n#define __NR_pivot_root 155\n#define __X32 1\n',
    );
    expect([...table]).toEqual([
      ['read', 0],
      ['pivot_root', 155],
    ]);
  });
});
