/**
 * Caps the linear memories a core wasm module defines by rewriting the limits in its memory section.
 * Worker `resourceLimits` do not bound wasm memory; a declared maximum does: `memory.grow` past it fails
 * inside the guest (a catchable out-of-memory), instead of taking the process down.
 */

import { ComponentLoadError } from './errors/component-load-error.js';

const PAGE_BYTES = 65_536;
const MEMORY_SECTION_ID = 5;

function readUnsignedLeb(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let position = offset;
  for (;;) {
    const byte = bytes[position++];
    if (byte === undefined) throw new Error('truncated LEB128 in wasm module');
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: position };
    shift += 7;
  }
}

function writeUnsignedLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    out.push(byte);
  } while (rest > 0);
  return out;
}

function rewriteMemorySection(content: Uint8Array, maxPages: number): number[] {
  const count = readUnsignedLeb(content, 0);
  const out = writeUnsignedLeb(count.value);
  let offset = count.next;
  for (let index = 0; index < count.value; index++) {
    const flags = content[offset++]!;
    if (flags > 1)
      throw new Error(
        `memory limits flag 0x${flags.toString(16)} (shared or 64-bit memory) is not supported`,
      );
    const minimum = readUnsignedLeb(content, offset);
    offset = minimum.next;
    let maximum = maxPages;
    if (flags === 1) {
      const declared = readUnsignedLeb(content, offset);
      offset = declared.next;
      maximum = Math.min(declared.value, maxPages);
    }
    if (minimum.value > maximum) {
      throw new ComponentLoadError(
        `The module needs ${Math.ceil((minimum.value * PAGE_BYTES) / 1_048_576)} MB of memory at start, above the cap of ${Math.floor((maxPages * PAGE_BYTES) / 1_048_576)} MB; raise limits.memory_mb in the capabilities file.`,
      );
    }
    out.push(1, ...writeUnsignedLeb(minimum.value), ...writeUnsignedLeb(maximum));
  }
  return out;
}

/** Returns a copy of `module` whose defined memories may grow to at most `maxBytes`. Imported memories are left alone. */
export function capModuleMemory(module: Uint8Array, maxBytes: number): Uint8Array<ArrayBuffer> {
  const maxPages = Math.max(1, Math.floor(maxBytes / PAGE_BYTES));
  const parts: Uint8Array[] = [module.subarray(0, 8)];
  let offset = 8;
  while (offset < module.length) {
    const id = module[offset]!;
    const size = readUnsignedLeb(module, offset + 1);
    const end = size.next + size.value;
    if (id === MEMORY_SECTION_ID) {
      const content = rewriteMemorySection(module.subarray(size.next, end), maxPages);
      parts.push(Uint8Array.from([id, ...writeUnsignedLeb(content.length), ...content]));
    } else {
      parts.push(module.subarray(offset, end));
    }
    offset = end;
  }
  return Buffer.concat(parts);
}

/** Initial size in bytes of the first memory a module defines, or 0 if it defines none. */
export function initialMemoryBytes(module: Uint8Array): number {
  let offset = 8;
  while (offset < module.length) {
    const id = module[offset]!;
    const size = readUnsignedLeb(module, offset + 1);
    if (id === MEMORY_SECTION_ID) {
      const count = readUnsignedLeb(module, size.next);
      if (count.value === 0) return 0;
      return readUnsignedLeb(module, count.next + 1).value * PAGE_BYTES;
    }
    offset = size.next + size.value;
  }
  return 0;
}
