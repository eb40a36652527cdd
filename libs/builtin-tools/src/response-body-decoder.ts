import { TextDecoder } from 'node:util';

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';')[0].trim().toLowerCase();
}

/** Whether a media type is text the model can read (HTML, plain text, JSON, XML, JavaScript, CSV, …). */
export function isTextual(type: string): boolean {
  return (
    type === '' ||
    type.startsWith('text/') ||
    /^application\/(?:[\w.+-]+\+)?(?:json|xml)$/.test(type) ||
    [
      'application/javascript',
      'application/x-www-form-urlencoded',
      'application/x-ndjson',
      'application/yaml',
    ].includes(type)
  );
}

/** Decodes a body with the charset of its Content-Type (UTF-8 when absent or unknown); bad bytes become U+FFFD. */
export function decodeBody(body: Uint8Array, contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(value ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}
