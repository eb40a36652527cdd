// Module resolve hooks for componentize-js, registered by the tool build:
// - `@bytecodealliance/weval` is imported eagerly and pulls a native xz binding that is not installed here.
//   Talon never enables AOT (weval would download a binary), so the import is answered with a stub that refuses
//   to run.
// - The embedding splicer replaces the guest's wall clock with a constant read from its own WASI clock at build
//   time, which put the build's timestamp into every component. Its clocks module is answered with one whose wall
//   clock reads SOURCE_DATE_EPOCH (seconds, default 0): a tool that calls Date.now() sees that fixed instant
//   (tools read the time through the host's now-millis).
const WEVAL_STUB =
  'data:text/javascript,export default async function getWeval(){throw new Error("AOT (weval) is disabled in Talon builds")}';
const EPOCH_SECONDS = BigInt(process.env.SOURCE_DATE_EPOCH ?? 0);

function fixedWallClock(realUrl) {
  const source = `import * as real from ${JSON.stringify(realUrl)};
export const monotonicClock = real.monotonicClock;
export const wallClock = { resolution: real.wallClock.resolution, now: () => ({ seconds: ${EPOCH_SECONDS}n, nanoseconds: 0 }) };`;
  return `data:text/javascript,${encodeURIComponent(source)}`;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@bytecodealliance/weval') return { url: WEVAL_STUB, shortCircuit: true };
  if (specifier === '@bytecodealliance/preview2-shim/clocks' && context.parentURL?.includes('spidermonkey-embedding-splicer')) {
    const real = await nextResolve(specifier, context);
    return { url: fixedWallClock(real.url), shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
