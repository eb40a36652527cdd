// A component instantiated in the benchmark's own thread and called directly: the baseline without
// NATS, the orchestrator or a worker hop. Host imports other than now-millis and log are denied.
import { join } from 'node:path';
import { REPO_ROOT } from './processes.mjs';

const { ComponentCompiler } = await import(join(REPO_ROOT, 'libs/wasm-host/dist/index.js'));

const DENY = () => {
  throw { payload: 'denied' };
};

/** Transpiles (cached in `cacheDir`), compiles and instantiates; returns the component's exports. */
export async function instantiateDirect(cacheDir, bytes, memoryMb) {
  const compiler = new ComponentCompiler({ cacheDir });
  const compiled = await compiler.compile(bytes);
  const modules = await compiler.loadModules(compiled, memoryMb);
  const { instantiate } = await import(compiled.entryUrl);
  return instantiate((name) => modules[name], {
    'talon:tool/host': {
      log: () => undefined,
      nowMillis: () => BigInt(Date.now()),
      secretExists: () => false,
      httpRequest: DENY,
      workspaceRead: DENY,
      toolInvoke: DENY,
    },
  });
}
