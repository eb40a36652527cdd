/**
 * The token lives in sessionStorage: one tab's lifetime, never in a URL or a cookie, so no other site can
 * make the browser send it (the front door's CSRF defence stays "bearer header only"). See docs/console.md.
 */
const KEY = 'talon.token';

export function readToken(): string | null {
  return sessionStorage.getItem(KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}
