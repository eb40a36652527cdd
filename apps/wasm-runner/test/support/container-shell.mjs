// Runs as root inside an emulated container (emulated-container.ts): starts the sandbox the way the
// wasm-runner does at start (startRunnerSandbox, built dist), runs each requested command through the real
// `shell` tool and prints one JSON report on stdout. Log lines go to the report, not to stdout.
import { existsSync, mkdirSync, writeFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { createShellTool } from '@talon/dev-tools';
import { JsonLogger } from '@talon/service-runtime';
import { startRunnerSandbox } from '../../dist/sandbox/runner-sandbox.js';

const { workspaceDir, commands } = JSON.parse(process.argv[2]);
const logs = [];
const logger = new JsonLogger({ service: 'wasm-runner', instanceId: 'container' }, 'info', (line) =>
  logs.push(JSON.parse(line)),
);

// A server on the container's own loopback: what a sandboxed command must not reach unless granted.
const hits = [];
const canary = createServer((request, response) => {
  hits.push(`${request.method} ${request.url}`);
  response.end('canary reached\n');
});
await new Promise((resolve) => canary.listen(0, '127.0.0.1', resolve));
const canaryPort = canary.address().port;

// The container's /etc is writable by its root (an overlay, as a container layer is): proof that a
// sandboxed write there would have landed if the sandbox let it.
writeFileSync('/etc/talon-container-probe', 'root may write here\n');
const containerEtcWritable = existsSync('/etc/talon-container-probe');
unlinkSync('/etc/talon-container-probe');

const sandbox = startRunnerSandbox(
  { workspaceDir, sandboxMode: 'on', sandboxEgressAllowlist: ['127.0.0.1/32'] },
  logger,
);
// registerDevTools creates the workspace whatever the sandbox's mode; the shell tool needs it to exist.
mkdirSync(workspaceDir, { recursive: true });
const shell = createShellTool({ root: workspaceDir, sandbox });
const context = {
  callId: 'container-test',
  signal: new AbortController().signal,
  grants: [],
  log: () => undefined,
};
const results = [];
for (const { command, grantCanary } of commands) {
  const expanded = command.replaceAll('$CANARY_PORT', String(canaryPort));
  try {
    const result = await shell.execute(
      { command: expanded, ...(grantCanary ? { networkHosts: [`127.0.0.1:${canaryPort}`] } : {}) },
      context,
    );
    results.push({ ok: true, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr });
  } catch (error) {
    results.push({ ok: false, code: error.code, message: error.message });
  }
}
canary.close();
process.stdout.write(
  JSON.stringify({
    status: sandbox.status,
    logs,
    results,
    hits,
    containerEtcWritable,
    etcPwned: existsSync('/etc/talon-pwned'),
  }) + '\n',
);
