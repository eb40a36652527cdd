import type { IncomingMessage } from 'node:http';
import { decodeJsonPayload, PayloadTooLargeError } from '@talon/service-runtime';

/**
 * Reads a JSON request body with the same size limit and errors as the NATS surface. Stops reading
 * as soon as the limit is passed, so an oversized upload costs at most `maxBytes` of memory.
 */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  return decodeJsonPayload(await readRawBody(request, maxBytes), maxBytes);
}

/** Reads a request body as bytes (signed webhooks verify the exact bytes), with the same size limit. */
export async function readRawBody(request: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new PayloadTooLargeError(declared, maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw new PayloadTooLargeError(total, maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
