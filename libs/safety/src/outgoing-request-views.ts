import { encodedTextViews } from './encoded-text-views.js';

/** A request as it will leave Talon: what the egress scan reads. */
export interface OutgoingRequest {
  url: string | URL;
  method?: string;
  headers?: Readonly<Record<string, string>>;
  /** A string is the UTF-8 text of the body. */
  body?: string | Uint8Array;
}

/** One reading of one part of a request (`url`, `userinfo`, `header <name>`, `body`). */
export interface RequestView {
  part: string;
  text: string;
}

/**
 * Every text a receiver could read out of a request: the URL raw and decoded (its query also as a form),
 * the userinfo decoded, each header line, and the body by its content type — JSON strings and keys
 * unescaped, form fields decoded, multipart text parts — each also with nested percent, base64 and hex
 * encodings peeled off (see {@link encodedTextViews}).
 */
export function outgoingRequestViews(request: OutgoingRequest): RequestView[] {
  const views: RequestView[] = [];
  const add = (part: string, texts: readonly string[]) => {
    for (const text of texts) if (text !== '') views.push({ part, text });
  };
  let url: URL | undefined;
  try {
    url = new URL(String(request.url));
  } catch {
    // An unparsable URL is still text that leaves; read it as written.
  }
  const href = url?.href ?? String(request.url);
  add('url', encodedTextViews(href));
  if (url !== undefined) {
    if (url.search !== '') add('url', encodedTextViews(url.search, true));
    if (url.username !== '' || url.password !== '')
      add('userinfo', encodedTextViews(`${url.username}:${url.password}`));
  }
  const headers = request.headers ?? {};
  for (const [name, value] of Object.entries(headers))
    add(`header ${name}`, encodedTextViews(`${name}: ${value}`));
  if (request.body !== undefined) {
    const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    const body = typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8');
    add('body', bodyReadings(body, contentType));
  }
  return views;
}

/**
 * The body's readings by content type. A JSON body that parses is read as its strings and keys (which
 * hold everything a key could be in; numbers and literals cannot), anything else also as written.
 */
function bodyReadings(body: string, contentType: string | undefined): string[] {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const json = type === 'application/json' || type.endsWith('+json');
  if (json || (type === '' && /^\s*[[{"]/.test(body))) {
    const strings = jsonStrings(body);
    if (strings !== undefined) return encodedTextViews(strings);
  }
  const form = type === 'application/x-www-form-urlencoded' || type === '' || type === 'text/plain';
  const readings = new Set(encodedTextViews(body, form));
  if (type === 'multipart/form-data') {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
    if (boundary !== undefined) {
      for (const part of multipartTextParts(body, boundary))
        bodyReadings(part.body, part.type).forEach((reading) => readings.add(reading));
    }
  }
  return [...readings];
}

/** Every key and string value of a JSON text, unescaped, one per line; undefined when it is not JSON. */
function jsonStrings(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const strings: string[] = [];
  const stack: unknown[] = [value];
  // Iterative, so a deeply nested body cannot overflow the stack of the scan.
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === 'string') strings.push(node);
    else if (Array.isArray(node)) stack.push(...node);
    else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        strings.push(key);
        stack.push(child);
      }
    }
  }
  return strings.join('\n');
}

/** The text parts of a multipart body (no content type, text/*, JSON or form), with their headers as text. */
function multipartTextParts(body: string, boundary: string): { type?: string; body: string }[] {
  const parts: { type?: string; body: string }[] = [];
  for (const chunk of body.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const split = chunk.search(/\r?\n\r?\n/);
    if (split === -1) continue;
    const head = chunk.slice(0, split);
    const content = chunk
      .slice(split)
      .replace(/^\r?\n\r?\n/, '')
      .replace(/\r?\n$/, '');
    const type = /^content-type:\s*([^\r\n]+)/im.exec(head)?.[1]?.trim();
    parts.push({ type: 'text/plain', body: head });
    const media = (type ?? '').split(';')[0].toLowerCase();
    if (
      type === undefined ||
      media.startsWith('text/') ||
      media === 'application/json' ||
      media.endsWith('+json') ||
      media === 'application/x-www-form-urlencoded'
    )
      parts.push({ type, body: content });
  }
  return parts;
}
