/**
 * V8 flags a service runs with by default, by service. The orchestrator allocates about 34 KB per tool call
 * (measured with the heap sampler at c64); with V8's default 16 MiB semi-space it scavenges four times as
 * often as with 64 MiB, which cost it 3–5 µs more main-thread GC per call (CPU profiles, same load). The
 * price is resident memory under load: about 100 MiB more once the young generation has grown, given back
 * 20–30 s into idleness. The other services keep V8's default (the tool-worker already spends what a stock
 * NestJS worker does).
 */
const SERVICE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  orchestrator: ['--max-semi-space-size=64'],
};

/**
 * `NODE_OPTIONS` for a service's process: its default flags, then whatever the environment already sets,
 * so an operator's own `NODE_OPTIONS` (read later by V8, so it wins) can override them. `undefined` when
 * there is nothing to set.
 */
export function serviceNodeOptions(service: string, existing?: string): string | undefined {
  const options = [...(SERVICE_FLAGS[service] ?? []), ...(existing?.trim() ? [existing.trim()] : [])];
  return options.length > 0 ? options.join(' ') : undefined;
}
