import type { TSchema } from '@sinclair/typebox';
import { API_METHOD_NAMES, API_METHODS } from './api-methods.js';
import { TYPED_CHAT_EVENT_SCHEMAS } from './chat-events.js';
import { ERROR_CODES, HTTP_STATUS_BY_CODE, type ErrorCode } from './error-codes.js';
import { SystemStatusSchema } from './system.js';

/** The OpenAPI version of the document. */
export const OPENAPI_VERSION = '3.1.0';

type Json = Record<string, unknown>;

/** A TypeBox schema as plain JSON Schema: symbols dropped, `$id`s removed (the document names things). */
function plain(schema: TSchema): Json {
  return JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => (key === '$id' ? undefined : value)),
  ) as Json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every error status the API answers, with the codes behind it, sorted. */
function codesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.values(ERROR_CODES).sort()) {
    const status = HTTP_STATUS_BY_CODE[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

function errorResponses(): Json {
  const responses: Json = {};
  for (const [status, codes] of codesByStatus())
    responses[`Error${status}`] = {
      description: `An error envelope with one of: ${codes.join(', ')}.`,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['ok', 'error'],
            properties: {
              ok: { const: false },
              error: {
                allOf: [ref('WireError'), { type: 'object', properties: { code: { enum: codes } } }],
              },
            },
          },
        },
      },
    };
  return responses;
}

function errorRefs(): Json {
  const refs: Json = {};
  for (const status of codesByStatus().keys())
    refs[String(status)] = { $ref: `#/components/responses/Error${status}` };
  return refs;
}

function success(data: Json, description: string): Json {
  return {
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['ok', 'data'],
          properties: { ok: { const: true }, data },
        },
      },
    },
  };
}

function operationId(method: string): string {
  return method.replace(/[._]([a-zA-Z])/g, (_match, letter: string) => letter.toUpperCase());
}

const SSE_DESCRIPTION =
  'Server-sent events: each has `event: <type>`, `id: <eventId>` and `data: <the event as JSON>`. A cut stream is resumed with GET /v1/sessions/{id}/events and `Last-Event-ID`.';

const sessionIdParameter = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The session id (a UUID, from sessions.create).',
  schema: { type: 'string', format: 'uuid' },
};

function restPaths(): Json {
  const errors = errorRefs();
  return {
    '/v1/system/status': {
      get: {
        operationId: 'getSystemStatus',
        summary: 'system.status as a GET.',
        tags: ['system'],
        'x-talon-scope': 'read',
        parameters: [
          { name: 'timeoutMs', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
        ],
        responses: { '200': success(ref('system.status.reply'), 'The status.'), ...errors },
      },
    },
    '/v1/system/status/stream': {
      get: {
        operationId: 'streamSystemStatus',
        summary: 'system.status every `intervalMs` (default 2000) as server-sent `status` events.',
        tags: ['system'],
        'x-talon-scope': 'read',
        parameters: [{ name: 'intervalMs', in: 'query', required: false, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'Server-sent `status` events whose data is the system status.',
            content: { 'text/event-stream': { schema: plain(SystemStatusSchema) } },
          },
          ...errors,
        },
      },
    },
    '/v1/methods': {
      get: {
        operationId: 'listMethods',
        summary: 'Every API method with the scope it needs.',
        tags: ['system'],
        'x-talon-scope': 'read',
        responses: {
          '200': success(
            {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'description', 'scope'],
                properties: {
                  name: { type: 'string' },
                  description: { type: 'string' },
                  scope: { enum: ['read', 'agent', 'operator', 'by-request'] },
                },
              },
            },
            'The methods.',
          ),
          ...errors,
        },
      },
    },
    '/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary:
          'This document. Public: it is the same as docs/openapi.json in the repository and holds no state.',
        tags: ['system'],
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI document.',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/v1/sessions/{id}/messages': {
      post: {
        operationId: 'streamChat',
        summary:
          'chat.send as server-sent events: every event of the turn, then `result` (or a fatal `error`).',
        tags: ['chat'],
        'x-talon-scope': 'agent',
        parameters: [sessionIdParameter],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['message'],
                properties: { message: { type: 'string', minLength: 1, maxLength: 100000 } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: SSE_DESCRIPTION,
            content: { 'text/event-stream': { schema: ref('ChatEvent') } },
          },
          ...errors,
        },
      },
    },
    '/v1/sessions/{id}/events': {
      get: {
        operationId: 'streamSessionEvents',
        summary: "Every event of the session from now on (any surface's turns), or after `Last-Event-ID`.",
        tags: ['chat'],
        'x-talon-scope': 'agent',
        parameters: [
          sessionIdParameter,
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            description: 'Replays the events after this one first (a resumed stream).',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: SSE_DESCRIPTION,
            content: { 'text/event-stream': { schema: ref('ChatEvent') } },
          },
          ...errors,
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the HTTP surface, built from the contract's method table and schemas (the
 * one source: `GET /v1/openapi.json` serves it and `docs/openapi.json` is this output).
 */
export function buildOpenApiDocument(): Json {
  const schemas: Json = {
    WireError: plain(
      // The wire error with its code list; the per-status responses narrow the code.
      {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { enum: Object.values(ERROR_CODES).sort() },
          message: { type: 'string' },
          details: {},
          retryable: { type: 'boolean' },
        },
      } as unknown as TSchema,
    ),
    ChatEvent: {
      description:
        'One event of a turn, by `type`. Servers may add types; clients skip the ones they do not know.',
      oneOf: Object.keys(TYPED_CHAT_EVENT_SCHEMAS).map((type) => ref(`ChatEvent.${type}`)),
    },
  };
  for (const [type, schema] of Object.entries(TYPED_CHAT_EVENT_SCHEMAS))
    schemas[`ChatEvent.${type}`] = plain(schema);
  const paths: Json = {};
  const errors = errorRefs();
  for (const name of API_METHOD_NAMES) {
    const contract = API_METHODS[name];
    schemas[`${name}.request`] = plain(contract.request);
    schemas[`${name}.reply`] = plain(contract.reply);
    paths[`/v1/rpc/${name}`] = {
      post: {
        operationId: operationId(name),
        summary: contract.summary,
        description: `The API method \`${name}\` (the same JSON as NATS \`talon.api.v1.${name}\`). Scope: ${contract.scope === 'by-request' ? 'decided by the request' : `\`${contract.scope}\``}.`,
        tags: [name.split('.')[0]],
        'x-talon-scope': contract.scope,
        'x-talon-idempotent': contract.idempotent,
        parameters: [
          {
            name: 'talon-call-id',
            in: 'header',
            required: false,
            description: 'A call id (at most 128 characters), echoed in the reply header and the logs.',
            schema: { type: 'string', maxLength: 128 },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}.request`) } } },
        responses: {
          '200': success(ref(`${name}.reply`), 'The method ran; `data` is its result.'),
          ...errors,
        },
      },
    };
  }
  Object.assign(paths, restPaths());
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Talon API',
      version: '1.0.0',
      description:
        'The HTTP surface of the Talon orchestrator. Every method is `POST /v1/rpc/<method>` with the same JSON as NATS and gRPC; replies are `{ok: true, data}` or `{ok: false, error: {code, message, details?, retryable?}}`, with an HTTP status derived from the code. Send `Authorization: Bearer <token>`.',
    },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A Talon API token (scope read, agent or operator).',
        },
      },
      schemas,
      responses: errorResponses(),
    },
  };
}
