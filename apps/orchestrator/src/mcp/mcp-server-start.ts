/** What starting needs of MCP control: start one server by name (idempotent for a running one). */
export interface McpServerControl<View = unknown> {
  start(server: string): Promise<View>;
}

/** How often the catalog is looked at while a started server's tools are announced. */
const POLL_MS = 50;

/**
 * Starts one MCP server and waits, until `deadline` (epoch ms), for `toolsReady` (given what the start
 * answered) to hold — a started
 * server's tools reach the catalog a moment after the start replies, through the workers' announcements.
 * Resolves whether they did in time; rejects when the server did not start (or not before the deadline).
 */
export async function startMcpServerAndWait<View>(
  control: McpServerControl<View>,
  server: string,
  toolsReady: (started: View) => boolean,
  deadline: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const started = await withDeadline(control.start(server), deadline);
  for (;;) {
    if (toolsReady(started)) return true;
    if (Date.now() >= deadline || signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function withDeadline<T>(work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('it did not start in time')),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
