// Runs inside a sandbox whose network namespace has only loopback: listens on 127.0.0.1:<port>, pipes
// every connection to Talon's egress proxy socket (bound into the sandbox), then runs the command and
// exits with its status. Usage: node loopback-bridge.mjs <port> <socket> -- <command> [args…]
import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { constants } from 'node:os';

const [port, socketPath, separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || !command) {
  process.stderr.write('loopback-bridge: usage: <port> <socket> -- <command> [args…]\n');
  process.exit(2);
}
const server = createServer((client) => {
  const upstream = connect(socketPath);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end);
  upstream.on('error', end);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    process.stderr.write(`loopback-bridge: ${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 9)));
});
