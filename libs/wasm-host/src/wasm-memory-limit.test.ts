import { describe, expect, it } from '@jest/globals';
import { capModuleMemory, initialMemoryBytes } from './wasm-memory-limit.js';

/** A minimal module: header, a memory section with the given limits bytes, and an export of it. */
function moduleWithMemory(limits: number[]): Uint8Array {
  const memory = [0x01, ...limits];
  const exportSection = [0x01, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    0x05,
    memory.length,
    ...memory,
    0x07,
    exportSection.length,
    ...exportSection,
  ]);
}

function maximumOf(bytes: Uint8Array): number | undefined {
  const module = new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>);
  const instance = new WebAssembly.Instance(module);
  const memory = instance.exports.mem as WebAssembly.Memory;
  try {
    memory.grow(100_000);
    return undefined;
  } catch {
    let pages = memory.buffer.byteLength / 65_536;
    while (true) {
      try {
        memory.grow(1);
        pages++;
      } catch {
        return pages;
      }
    }
  }
}

describe('capModuleMemory', () => {
  it('adds a maximum to a memory that had none', () => {
    const capped = capModuleMemory(moduleWithMemory([0x00, 0x02]), 10 * 65_536);
    expect(WebAssembly.validate(capped)).toBe(true);
    expect(maximumOf(capped)).toBe(10);
  });

  it('lowers a larger declared maximum and keeps a smaller one', () => {
    expect(maximumOf(capModuleMemory(moduleWithMemory([0x01, 0x01, 0x80, 0x01]), 4 * 65_536))).toBe(4);
    expect(maximumOf(capModuleMemory(moduleWithMemory([0x01, 0x01, 0x03]), 40 * 65_536))).toBe(3);
  });

  it('refuses a cap below the initial memory', () => {
    expect(() => capModuleMemory(moduleWithMemory([0x00, 0x91, 0x01]), 2_000_000)).toThrow(
      /needs 10 MB of memory at start/,
    );
  });

  it('reads the initial memory size', () => {
    expect(initialMemoryBytes(moduleWithMemory([0x00, 0x91, 0x01]))).toBe(145 * 65_536);
  });

  it('leaves a module without memory unchanged', () => {
    const empty = Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    expect([...capModuleMemory(empty, 65_536)]).toEqual([...empty]);
  });
});
