// Test fixture: performs exactly one host import named by params.op and returns what the host answered,
// so tests can check each import granted and denied. Not published in the registry.
import { httpRequest, log, nowMillis, secretExists, toolInvoke, workspaceRead } from 'talon:tool/host@0.1.0';

export function schema() {
  return JSON.stringify({ type: 'object', properties: { op: { type: 'string' } }, required: ['op'] });
}

export function description() {
  return 'Test probe: calls one host import and reports the answer.';
}

function attempt(fn) {
  try {
    return { ok: fn() };
  } catch (error) {
    return { err: typeof error?.payload === 'string' ? error.payload : String(error) };
  }
}

export function execute(request) {
  const params = JSON.parse(request.params);
  let result;
  switch (params.op) {
    case 'http':
      result = attempt(() => httpRequest({ method: params.method ?? 'GET', url: params.url, headers: params.headers ?? [], body: params.body }));
      break;
    case 'read':
      result = attempt(() => workspaceRead(params.path));
      break;
    case 'invoke':
      result = attempt(() => toolInvoke(params.alias, JSON.stringify(params.params ?? {})));
      break;
    case 'secret':
      result = attempt(() => secretExists(params.name));
      break;
    case 'now':
      result = attempt(() => Number(nowMillis()));
      break;
    case 'log':
      result = attempt(() => log(params.level ?? 'info', params.message ?? ''));
      break;
    case 'hog': {
      // Memory bomb: keeps allocating until the engine runs out of its memory cap.
      const keep = [];
      for (;;) keep.push(new Array(1 << 20).fill(keep.length));
    }
    case 'spin':
      for (;;);
    case 'context':
      result = { ok: request.context ?? null };
      break;
    default:
      return { error: `unknown op ${params.op}` };
  }
  return { output: JSON.stringify(result) };
}
