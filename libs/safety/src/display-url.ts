/** Removes userinfo so error details and logs never carry a password. */
export function displayUrl(url: URL | string): string {
  if (typeof url === 'string') {
    try {
      url = new URL(url);
    } catch {
      return '(invalid URL)';
    }
  }
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}
