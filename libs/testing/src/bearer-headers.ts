/** Headers of an authenticated JSON request to the HTTP API. */
export function bearerHeaders(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}
