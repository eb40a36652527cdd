// Module resolve hook for the tool build: componentize-js imports `@bytecodealliance/weval` eagerly, and weval
// pulls a native xz binding that is not installed here. Talon never enables AOT (weval would download a binary),
// so the import is answered with a stub that refuses to run.
const STUB_URL = 'data:text/javascript,export default async function getWeval(){throw new Error("AOT (weval) is disabled in Talon builds")}';

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@bytecodealliance/weval') return { url: STUB_URL, shortCircuit: true };
  return nextResolve(specifier, context);
}
