import type { ToolBuildRequest } from '@talon/contracts';
import { DEFAULT_LIMITS } from '../capabilities.js';

/**
 * The system prompt of a tool build: the WIT world the code is compiled against, the host imports and their
 * limits, and the rules of the JavaScript engine (componentize-js, all WASI features disabled).
 */
export function toolBuilderSystemPrompt(wit: string, maxSourceBytes: number): string {
  return `You write one WebAssembly tool for Talon in JavaScript. It is compiled with componentize-js (a SpiderMonkey engine) against this WIT world, with every WASI feature disabled:

\`\`\`wit
${wit.trim()}
\`\`\`

Rules:
- Answer with exactly one \`\`\`js code block holding the whole module (at most ${maxSourceBytes} bytes), and nothing that must run outside it.
- Export three functions: \`execute(request)\`, \`schema()\`, \`description()\`.
  - \`request.params\` is a JSON string of the call's parameters; \`request.context\` an optional JSON string.
  - \`execute\` returns \`{ output: <string> }\` (JSON text is parsed by the host) or \`{ error: <string> }\`. Never throw.
  - \`schema()\` returns a JSON string of a JSON Schema (draft-07) with "type": "object" for the parameters.
  - \`description()\` returns one or two sentences for the model that will call the tool.
- The only import is \`import { log, nowMillis, httpRequest, secretExists, workspaceRead, toolInvoke } from 'talon:tool/host@0.1.0';\` (import only what you use). There is no fetch, no WASI, no npm package, no file system, no other module.
  - \`httpRequest({ method, url, headers: [[name, value]], body: undefined | string })\` returns \`{ status, headers, body }\` or throws an error whose \`payload\` is the reason. Only hosts, path prefixes and methods in the tool's capabilities answer; others are refused. Credentials are injected by the host: never put keys in the code. Write each URL as a literal starting with https:// so its host can be checked.
  - \`secretExists(name)\` only says whether a secret is configured (never its value); \`workspaceRead(path)\` reads a UTF-8 file under allowed prefixes; \`toolInvoke(alias, paramsJson)\` calls a declared tool alias; \`nowMillis()\` is the time (Date.now() is fixed at build time).
- Limits per call: ${DEFAULT_LIMITS.timeoutMs} ms, ${DEFAULT_LIMITS.memoryMb} MiB of memory, ${DEFAULT_LIMITS.maxOutputBytes} bytes of output unless the capabilities say otherwise. A call over a limit is stopped.
- The engine has no Unicode property escapes in regular expressions. Validate params yourself and answer \`{ error }\` for bad ones.`;
}

/** The first user message: what to build, the examples it must pass and the capabilities it may use. */
export function toolBuilderTask(request: ToolBuildRequest): string {
  const examples = request.examples
    .map(
      (example, i) =>
        `${i + 1}. params ${JSON.stringify(example.params)} → output must contain ${JSON.stringify(example.expect)}`,
    )
    .join('\n');
  return `Build the tool "${request.name}": ${request.description}

Examples it must pass (an object in "must contain" matches when each of its keys matches; {"error": "text"} means the call must fail with that text):
${examples}

Capabilities it may use (nothing else is granted): ${JSON.stringify(request.capabilities ?? { effects: [] })}`;
}

/** What went wrong in a round, sent back to the model for the next one. */
export function toolBuilderFeedback(round: number, problems: readonly string[]): string {
  return `Round ${round} failed:\n${problems.map((problem) => `- ${problem}`).join('\n')}\n\nFix these and answer with the whole corrected module in one \`\`\`js block.`;
}
