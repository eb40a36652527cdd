// Reading, instrumenting and rewriting a core WebAssembly module for a pre-initialisation snapshot (used by
// deterministic-wizer.mjs). `analyse` lists the sections, imports, defined globals and memories, exports and checks
// the data segments; `instrument` exports every defined global and memory and caps the memories for the run;
// `snapshot` writes the module back with the initialised globals, memory sizes and non-zero memory as data.

// ---- binary reading and writing --------------------------------------------------------------------------

const PAGE = 65_536;
const MAX_DATA_SEGMENTS = 10_000;
/** Zero runs this short are kept inside a segment: a new segment costs at least this many bytes. */
const MERGE_GAP = 4;

function readU32(bytes, pos) {
  let result = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[pos++];
    result += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [result, pos];
}

function skipSigned(bytes, pos) {
  while (bytes[pos++] & 0x80);
  return pos;
}

function u32(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

function s64(value) {
  let v = BigInt(value);
  const out = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return Buffer.from(out);
  }
}

function name(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u32(bytes.length), bytes]);
}

function section(id, payload) {
  return Buffer.concat([Buffer.from([id]), u32(payload.length), payload]);
}

function sections(module) {
  if (module.readUInt32LE(0) !== 0x6d736100 || module.readUInt32LE(4) !== 1) throw new Error('the input is not a core WebAssembly module');
  const list = [];
  let pos = 8;
  while (pos < module.length) {
    const id = module[pos];
    const [size, start] = readU32(module, pos + 1);
    list.push({ id, start, end: start + size, raw: module.subarray(pos, start + size) });
    pos = start + size;
  }
  return list;
}

/** Skips a constant expression (up to and including `end`). */
function skipConstExpr(bytes, pos) {
  for (;;) {
    const op = bytes[pos++];
    if (op === 0x0b) return pos;
    if (op === 0x41 || op === 0x42) pos = skipSigned(bytes, pos);
    else if (op === 0x43) pos += 4;
    else if (op === 0x44) pos += 8;
    else if (op === 0x23 || op === 0xd2) pos = readU32(bytes, pos)[1];
    else if (op === 0xd0) pos += 1;
    else if (op === 0xfd) pos = readU32(bytes, pos)[1] + 16;
    else if (op < 0x6a || op > 0x7e) throw new Error(`unsupported opcode 0x${op.toString(16)} in a constant expression`);
  }
}

function readLimits(bytes, pos) {
  const flags = bytes[pos++];
  let min;
  let max;
  [min, pos] = readU32(bytes, pos);
  if (flags & 1) [max, pos] = readU32(bytes, pos);
  return { flags, min, max, pos };
}

function encodeLimits({ flags, min, max }) {
  return Buffer.concat([Buffer.from([flags]), u32(min), ...(flags & 1 ? [u32(max)] : [])]);
}

// ---- module analysis --------------------------------------------------------------------------------------

export function analyse(module) {
  const list = sections(module);
  const info = { list, importedGlobals: 0, importedMemories: 0, globals: [], memories: [], exports: [], imports: [] };
  for (const s of list) {
    const bytes = module;
    let pos = s.start;
    if (s.id === 2) {
      let count;
      [count, pos] = readU32(bytes, pos);
      for (let i = 0; i < count; i++) {
        let len;
        [len, pos] = readU32(bytes, pos);
        const moduleName = bytes.toString('utf8', pos, pos + len);
        pos += len;
        [len, pos] = readU32(bytes, pos);
        const field = bytes.toString('utf8', pos, pos + len);
        pos += len;
        const kind = bytes[pos++];
        info.imports.push({ module: moduleName, name: field, kind });
        if (kind === 0) pos = readU32(bytes, pos)[1];
        else if (kind === 1) pos = readLimits(bytes, pos + 1).pos;
        else if (kind === 2) {
          pos = readLimits(bytes, pos).pos;
          info.importedMemories++;
        } else if (kind === 3) {
          pos += 2;
          info.importedGlobals++;
        } else if (kind === 4) pos = readU32(bytes, pos + 1)[1];
      }
    } else if (s.id === 5) {
      let count;
      [count, pos] = readU32(bytes, pos);
      for (let i = 0; i < count; i++) {
        const limits = readLimits(bytes, pos);
        if (limits.flags & ~1) throw new Error('shared or 64-bit memories are not supported');
        info.memories.push(limits);
        pos = limits.pos;
      }
    } else if (s.id === 6) {
      let count;
      [count, pos] = readU32(bytes, pos);
      for (let i = 0; i < count; i++) {
        const type = bytes[pos];
        const mutable = bytes[pos + 1] === 1;
        const exprStart = pos + 2;
        pos = skipConstExpr(bytes, exprStart);
        info.globals.push({ type, mutable, raw: bytes.subarray(exprStart - 2, pos) });
      }
    } else if (s.id === 7) {
      let count;
      [count, pos] = readU32(bytes, pos);
      for (let i = 0; i < count; i++) {
        const start = pos;
        let len;
        [len, pos] = readU32(bytes, pos);
        const field = bytes.toString('utf8', pos, pos + len);
        pos += len + 1;
        pos = readU32(bytes, pos)[1];
        info.exports.push({ name: field, raw: bytes.subarray(start, pos) });
      }
    } else if (s.id === 11) {
      let count;
      [count, pos] = readU32(bytes, pos);
      for (let i = 0; i < count; i++) {
        let flags;
        [flags, pos] = readU32(bytes, pos);
        if (flags === 1) throw new Error('passive data segments are not supported by the snapshot');
        if (flags === 2) pos = readU32(bytes, pos)[1];
        pos = skipConstExpr(bytes, pos);
        let len;
        [len, pos] = readU32(bytes, pos);
        pos += len;
      }
    }
  }
  return info;
}

function rebuild(module, info, replace) {
  const out = [module.subarray(0, 8)];
  for (const s of info.list) {
    const replacement = replace(s);
    if (replacement === undefined) out.push(s.raw);
    else if (replacement !== null) out.push(replacement);
  }
  return Buffer.concat(out);
}

/** The module with every defined global and memory exported, and memories given a ceiling for the run. */
export function instrument(module, info, maxPages) {
  const exports = [...info.exports.map((e) => e.raw)];
  info.globals.forEach((_, i) => exports.push(Buffer.concat([name(`__snapshot_global_${i}`), Buffer.from([3]), u32(info.importedGlobals + i)])));
  info.memories.forEach((_, i) => exports.push(Buffer.concat([name(`__snapshot_memory_${i}`), Buffer.from([2]), u32(info.importedMemories + i)])));
  const exportSection = section(7, Buffer.concat([u32(exports.length), ...exports]));
  const hasExports = info.list.some((s) => s.id === 7);
  return rebuild(module, info, (s) => {
    if (s.id === 5) {
      const capped = info.memories.map((m) => encodeLimits({ flags: m.flags | 1, min: m.min, max: Math.min(m.max ?? maxPages, maxPages) }));
      return section(5, Buffer.concat([u32(capped.length), ...capped]));
    }
    if (s.id === 7) return exportSection;
    // No export section: add one right after the globals (sections must stay in order).
    if (!hasExports && s.id === 6) return Buffer.concat([s.raw, exportSection]);
    return undefined;
  });
}

// ---- the snapshot and the rewrite ----------------------------------------------------------------------------

function nonZeroRegions(bytes, memoryIndex) {
  const regions = [];
  let pos = 0;
  while (pos < bytes.length) {
    while (pos < bytes.length && bytes[pos] === 0) pos++;
    if (pos >= bytes.length) break;
    const start = pos;
    let end = pos;
    // Extend over short zero gaps.
    for (;;) {
      while (end < bytes.length && bytes[end] !== 0) end++;
      let next = end;
      while (next < bytes.length && bytes[next] === 0 && next - end <= MERGE_GAP) next++;
      if (next < bytes.length && bytes[next] !== 0 && next - end <= MERGE_GAP) end = next;
      else break;
    }
    regions.push({ memoryIndex, offset: start, end });
    pos = end;
  }
  return regions;
}

function capSegments(regions) {
  if (regions.length <= MAX_DATA_SEGMENTS) return regions;
  // Merge across the smallest gaps (ties: lowest offset first) until the count fits.
  const gaps = [];
  for (let i = 0; i + 1 < regions.length; i++)
    if (regions[i].memoryIndex === regions[i + 1].memoryIndex) gaps.push({ i, size: regions[i + 1].offset - regions[i].end });
  gaps.sort((a, b) => a.size - b.size || a.i - b.i);
  const joinWithNext = new Set(gaps.slice(0, regions.length - MAX_DATA_SEGMENTS).map((g) => g.i));
  const merged = [];
  for (let i = 0; i < regions.length; i++) {
    const last = merged.at(-1);
    if (last && joinWithNext.has(i - 1)) last.end = regions[i].end;
    else merged.push({ ...regions[i] });
  }
  return merged;
}

function constExpr(type, value) {
  if (type === 0x7f) return Buffer.concat([Buffer.from([0x41]), s64(value)]);
  if (type === 0x7e) return Buffer.concat([Buffer.from([0x42]), s64(value)]);
  if (type === 0x7d) {
    const b = Buffer.alloc(5);
    b[0] = 0x43;
    b.writeFloatLE(value, 1);
    return b;
  }
  if (type === 0x7c) {
    const b = Buffer.alloc(9);
    b[0] = 0x44;
    b.writeDoubleLE(value, 1);
    return b;
  }
  throw new Error(`cannot snapshot a mutable global of type 0x${type.toString(16)}`);
}

export function snapshot(module, info, instance, initFunc) {
  const memories = info.memories.map((_, i) => new Uint8Array(instance.exports[`__snapshot_memory_${i}`].buffer));
  const regions = capSegments(memories.flatMap((bytes, i) => nonZeroRegions(bytes, info.importedMemories + i)));
  const globals = info.globals.map((g, i) =>
    g.mutable
      ? Buffer.concat([Buffer.from([g.type, 1]), constExpr(g.type, instance.exports[`__snapshot_global_${i}`].value), Buffer.from([0x0b])])
      : g.raw,
  );
  const segments = regions.map((r) => {
    const memory = memories[r.memoryIndex - info.importedMemories];
    const head = r.memoryIndex === 0 ? Buffer.from([0]) : Buffer.concat([Buffer.from([2]), u32(r.memoryIndex)]);
    return Buffer.concat([head, Buffer.from([0x41]), s64(r.offset | 0), Buffer.from([0x0b]), u32(r.end - r.offset), memory.subarray(r.offset, r.end)]);
  });
  const dataSection = section(11, Buffer.concat([u32(segments.length), ...segments]));
  const keptExports = info.exports.filter((e) => e.name !== initFunc && e.name !== '_initialize').map((e) => e.raw);
  let dataWritten = false;
  const output = rebuild(module, info, (s) => {
    if (s.id === 5) {
      const limits = info.memories.map((m, i) => encodeLimits({ ...m, min: memories[i].length / PAGE }));
      return section(5, Buffer.concat([u32(limits.length), ...limits]));
    }
    if (s.id === 6) return section(6, Buffer.concat([u32(globals.length), ...globals]));
    if (s.id === 7) return section(7, Buffer.concat([u32(keptExports.length), ...keptExports]));
    if (s.id === 8) return null;
    if (s.id === 12) return section(12, u32(segments.length));
    if (s.id === 11) {
      dataWritten = true;
      return dataSection;
    }
    // Before the first custom section that follows the code (the name section must stay last).
    if (s.id === 0 && !dataWritten && info.list.indexOf(s) > info.list.findIndex((x) => x.id === 10)) {
      dataWritten = true;
      return Buffer.concat([dataSection, s.raw]);
    }
    return undefined;
  });
  return dataWritten ? output : Buffer.concat([output, dataSection]);
}

