import { SsrfGuard, safeFetch, type SsrfGuardOptions } from '@talon/safety';
import type { ArtifactDownloader } from './artifact-source.js';

/** Default time allowed for one artifact download. */
export const DEFAULT_ARTIFACT_DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * An {@link ArtifactDownloader} through the SSRF guard of `@talon/safety` (redirects re-checked, body capped):
 * the one to use in production.
 */
export function safeFetchArtifactDownloader(
  options: SsrfGuardOptions & { timeoutMs?: number } = {},
): ArtifactDownloader {
  const guard = new SsrfGuard(options);
  return async (url, maxBytes) => {
    const response = await safeFetch(url, {
      guard,
      maxResponseBytes: maxBytes,
      timeoutMs: options.timeoutMs ?? DEFAULT_ARTIFACT_DOWNLOAD_TIMEOUT_MS,
    });
    if (response.status !== 200) throw new Error(`download of ${response.url} answered ${response.status}`);
    return new Uint8Array(response.body);
  };
}
