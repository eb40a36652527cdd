/** Classic BPF opcodes a seccomp filter uses (linux/bpf_common.h). */
export const BPF = {
  /** A = 32-bit word at offset k of `struct seccomp_data`. */
  LD_W_ABS: 0x20,
  /** A &= k. */
  ALU_AND_K: 0x54,
  /** pc += k. */
  JA: 0x05,
  JEQ_K: 0x15,
  JGT_K: 0x25,
  JGE_K: 0x35,
  /** Return k to the kernel (the action). */
  RET_K: 0x06,
} as const;

/** The kernel's limit on one filter program (BPF_MAXINSNS). */
export const MAX_BPF_INSTRUCTIONS = 4096;
const MAX_CONDITIONAL_JUMP = 255;

/** A position in the program, placed once and jumped to by its label. */
export interface BpfLabel {
  readonly id: number;
}

type Target = number | BpfLabel;

interface Instruction {
  code: number;
  k: number;
  jt: Target;
  jf: Target;
}

/**
 * Builds a classic BPF program with forward jumps to labels, resolved when the program is assembled.
 * Conditional jumps reach at most 255 instructions ahead (an 8-bit offset); `JA` takes a 32-bit one.
 */
export class BpfAssembler {
  private readonly instructions: Instruction[] = [];
  private readonly placed = new Map<number, number>();
  private nextLabel = 0;

  label(): BpfLabel {
    return { id: this.nextLabel++ };
  }

  /** The next instruction emitted is where `label` points. */
  place(label: BpfLabel): void {
    if (this.placed.has(label.id)) throw new Error(`BPF label ${label.id} placed twice`);
    this.placed.set(label.id, this.instructions.length);
  }

  emit(code: number, k: number, jt: Target = 0, jf: Target = 0): void {
    this.instructions.push({ code, k: k >>> 0, jt, jf });
  }

  /** An unconditional jump to `label`. */
  jump(label: BpfLabel): void {
    this.emit(BPF.JA, 0, label, 0);
  }

  get length(): number {
    return this.instructions.length;
  }

  /** The program as `struct sock_filter[]` in little-endian byte order (what `bwrap --seccomp` reads). */
  assemble(): Buffer {
    if (this.instructions.length > MAX_BPF_INSTRUCTIONS)
      throw new Error(
        `the filter has ${this.instructions.length} instructions, over the kernel's ${MAX_BPF_INSTRUCTIONS}`,
      );
    const buffer = Buffer.alloc(this.instructions.length * 8);
    this.instructions.forEach((instruction, pc) => {
      let { k } = instruction;
      let jt = 0;
      let jf = 0;
      if (instruction.code === BPF.JA) k = this.offset(pc, instruction.jt, Number.MAX_SAFE_INTEGER);
      else {
        jt = this.offset(pc, instruction.jt, MAX_CONDITIONAL_JUMP);
        jf = this.offset(pc, instruction.jf, MAX_CONDITIONAL_JUMP);
      }
      buffer.writeUInt16LE(instruction.code, pc * 8);
      buffer.writeUInt8(jt, pc * 8 + 2);
      buffer.writeUInt8(jf, pc * 8 + 3);
      buffer.writeUInt32LE(k, pc * 8 + 4);
    });
    return buffer;
  }

  private offset(pc: number, target: Target, max: number): number {
    if (typeof target === 'number') return target;
    const at = this.placed.get(target.id);
    if (at === undefined) throw new Error(`BPF label ${target.id} was never placed`);
    const offset = at - pc - 1;
    if (offset < 0 || offset > max) throw new Error(`BPF jump of ${offset} from ${pc} is out of range`);
    return offset;
  }
}
