// Bundles each service's compiled entry (apps/<name>/dist/main.js) into one ES module,
// apps/<name>/dist/bundle/main.mjs, which starts a second or more sooner: Node 20 resolves, reads and links
// each of a service's modules on its own, 2,647 for the orchestrator (time to ready measured 3.3–3.8 s →
// 2.0–2.3 s for it, 2.0 → 0.9 s for a tool-worker).
// Every module keeps its own `import.meta.url` (rewritten relative to the bundle), so files found beside a
// module (migrations, the proto, worker scripts) are found as before. Packages that read files beside
// their own modules at run time (PGlite, Prisma, gRPC, jco) and node-postgres (its CommonJS does not survive
// bundling) stay outside, imported by path from where the importer would load them. Beside each bundle,
// inputs.json lists the workspace files it was made from, so a launcher can tell a stale bundle
// (`serviceEntry` in @talon/service-runtime) and start the compiled entry instead.
import { statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SERVICES = ['orchestrator', 'tool-worker', 'skill-service', 'wasm-runner'];
/** Kept outside the bundle (see above). */
const EXTERNAL = [
  /^@electric-sql\/pglite/,
  /^@prisma\//,
  /^pglite-prisma-adapter/,
  /^@grpc\//,
  /^@bytecodealliance\//,
  /^pg(-[a-z-]+)?$/,
];
/** Prisma's generated client reads its engine files beside itself. */
const GENERATED_CLIENT = /generated\/prisma\/client\.js$/;

const quiet = process.argv.includes('--quiet');
/** `--out <dir>`: bundles go to <dir>/<service>/ instead (a test bundles beside a running suite). */
const outAt = process.argv.indexOf('--out');
const outRoot = outAt > 0 ? resolve(process.argv[outAt + 1]) : undefined;

for (const service of SERVICES) {
  const started = performance.now();
  const outDir = outRoot ? join(outRoot, service) : join(ROOT, 'apps', service, 'dist', 'bundle');
  const fromBundle = (file) => {
    const path = relative(outDir, file);
    return path.startsWith('.') ? path : `./${path}`;
  };
  const bundle = await rolldown({
    input: join(ROOT, 'apps', service, 'dist', 'main.js'),
    platform: 'node',
    // Nest's optional transports and validators are loaded only when configured; none is.
    onLog: (level, log, handle) => {
      if (log.code === 'UNRESOLVED_IMPORT' || log.code === 'EVAL') return;
      handle(level, log);
    },
    plugins: [
      {
        name: 'talon-service-bundle',
        async resolveId(source, importer) {
          if (source.startsWith('node:')) return { id: source, external: true };
          if (!importer) return null;
          const generated = GENERATED_CLIENT.test(source);
          if (!generated && !EXTERNAL.some((pattern) => pattern.test(source))) return null;
          const file = generated
            ? resolve(dirname(importer), source)
            : (await this.resolve(source, importer, { skipSelf: true }))?.id;
          return file ? { id: fromBundle(file), external: true } : null;
        },
        transform(code, id) {
          if (!id.startsWith('/') || !code.includes('import.meta.url')) return null;
          const own = JSON.stringify(fromBundle(id));
          return {
            code: code.replaceAll('import.meta.url', `new URL(${own}, import.meta.url).href`),
            map: null,
          };
        },
      },
    ],
  });
  const { output } = await bundle.write({
    file: join(outDir, 'main.mjs'),
    format: 'esm',
    codeSplitting: false,
    keepNames: true,
    sourcemap: true,
  });
  await bundle.close();
  const inputs = output[0].moduleIds
    .filter((id) => id.startsWith(ROOT) && !id.includes('/node_modules/'))
    .map((id) => relative(ROOT, id))
    .sort();
  inputs.push('pnpm-lock.yaml');
  writeFileSync(
    join(outDir, 'inputs.json'),
    JSON.stringify({
      files: inputs.map((file) => {
        const stat = statSync(join(ROOT, file));
        return [file, stat.mtimeMs, stat.size];
      }),
    }),
  );
  if (!quiet)
    console.log(
      `bundle  ${service.padEnd(14)} ${String(Math.round(performance.now() - started)).padStart(5)} ms  ${inputs.length} workspace files`,
    );
}
