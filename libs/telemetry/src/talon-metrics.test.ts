import { describe, expect, it } from '@jest/globals';
import { createTalonMetrics } from './talon-metrics.js';

describe('createTalonMetrics', () => {
  it('exports the work in flight as counted when scraped, a finished label at zero', async () => {
    const metrics = createTalonMetrics('unit');
    metrics.toolCallsInFlight.inc('builtin');
    metrics.toolCallsInFlight.inc('builtin');
    metrics.toolCallsInFlight.inc('wasm');
    metrics.toolCallsInFlight.dec('wasm');
    metrics.natsInFlight.inc('talon.api.v1.>');
    const text = await metrics.registry.metrics();
    expect(text).toContain('talon_tool_calls_in_flight{domain="builtin",service="unit"} 2');
    expect(text).toContain('talon_tool_calls_in_flight{domain="wasm",service="unit"} 0');
    expect(text).toContain('talon_nats_requests_in_flight{subject="talon.api.v1.>",service="unit"} 1');
    metrics.toolCallsInFlight.dec('builtin');
    expect(await metrics.registry.metrics()).toContain(
      'talon_tool_calls_in_flight{domain="builtin",service="unit"} 1',
    );
  });
});
