import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArtifactTooLargeError } from './errors/artifact-too-large-error.js';

/** Downloads an http(s) artifact with a byte cap. Plug in the SSRF-guarded fetch in production. */
export type ArtifactDownloader = (url: string, maxBytes: number) => Promise<Uint8Array>;

/** Default 64 MiB: a componentize-js tool is about 12 MB. */
export const DEFAULT_MAX_ARTIFACT_BYTES = 64 * 1_048_576;

/** {@link ArtifactDownloader} over the global fetch, refusing redirects and bodies above the cap. */
export const fetchArtifactDownloader: ArtifactDownloader = async (url, maxBytes) => {
  const response = await fetch(url, { redirect: 'error' });
  if (!response.ok) throw new Error(`download of ${url} answered ${response.status}`);
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes)
    throw new ArtifactTooLargeError(`${url} is ${declared} bytes, above the cap of ${maxBytes}.`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw new ArtifactTooLargeError(`${url} is larger than the cap of ${maxBytes} bytes.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
};

async function readCapped(path: string, maxBytes: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new ArtifactTooLargeError(`${path} is ${size} bytes, above the cap of ${maxBytes}.`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Reads an artifact named by a registry entry: a path (relative to the entry's folder), a `file://` URL, or
 * an `http(s)://` URL fetched through `download`.
 */
export async function readArtifact(
  url: string,
  baseDir: string,
  maxBytes: number,
  download: ArtifactDownloader,
): Promise<Uint8Array> {
  if (/^https?:\/\//i.test(url)) return download(url, maxBytes);
  if (url.startsWith('file://')) return readCapped(fileURLToPath(url), maxBytes);
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^[a-z]:[\\/]/i.test(url))
    throw new Error(`unsupported artifact URL scheme in ${url}`);
  return readCapped(isAbsolute(url) ? url : resolve(baseDir, url), maxBytes);
}
