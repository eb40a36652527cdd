/** Default cap on a generated tool's source. */
export const DEFAULT_MAX_SOURCE_BYTES = 65_536;

/** Where the module may import from: the host interface, nothing else. */
const HOST_MODULE = 'talon:tool/host@0.1.0';

/** The JavaScript of a model reply: the first fenced ```js / ```javascript block, or the whole reply if it has none. */
export function extractSource(reply: string): string | undefined {
  const fenced = /```(?:js|javascript|mjs)?[ \t]*\r?\n([\s\S]*?)```/.exec(reply);
  const source = (fenced ? fenced[1]! : reply).trim();
  return source.length > 0 ? `${source}\n` : undefined;
}

/**
 * Problems found before compiling: over the size cap, imports other than the host interface (a `wasi:` import is
 * outside the world and refused here, before the build), or a missing export.
 */
export function sourceProblems(source: string, maxBytes = DEFAULT_MAX_SOURCE_BYTES): string[] {
  const problems: string[] = [];
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > maxBytes)
    problems.push(`the source is ${bytes} bytes, over the cap of ${maxBytes}; write a smaller tool`);
  const specifiers = [
    ...source.matchAll(/\bimport\s*(?:[^;'"()]*?\bfrom\s*)?['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*\(\s*['"`]([^'"`]+)['"`]/g),
  ].map((match) => match[1]!);
  for (const specifier of new Set(specifiers))
    if (specifier !== HOST_MODULE)
      problems.push(
        `the source imports "${specifier}": only "${HOST_MODULE}" exists in the sandboxed-tool world (no WASI, no npm packages, no other files)`,
      );
  for (const name of ['execute', 'schema', 'description'])
    if (
      !new RegExp(
        `export\\s+(?:async\\s+)?function\\s+${name}\\b|export\\s+(?:const|let)\\s+${name}\\b`,
      ).test(source)
    )
      problems.push(`the source must export a function ${name}`);
  return problems;
}
