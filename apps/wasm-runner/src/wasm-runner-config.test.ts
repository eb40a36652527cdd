import { describe, expect, it } from '@jest/globals';
import { parseWasmRunnerConfig } from './wasm-runner-config.js';

describe('parseWasmRunnerConfig: the sandbox settings', () => {
  it('sandboxes by default with no private range allowed through the egress proxy', () => {
    expect(parseWasmRunnerConfig({}, '/srv')).toMatchObject({
      sandboxMode: 'on',
      sandboxEgressAllowlist: [],
    });
  });

  it('reads TALON_SANDBOX=off and a comma-separated egress allowlist', () => {
    expect(
      parseWasmRunnerConfig(
        { TALON_SANDBOX: 'off', TALON_SANDBOX_EGRESS_ALLOWLIST: ' 10.1.0.0/16, 192.168.5.7 ,' },
        '/srv',
      ),
    ).toMatchObject({ sandboxMode: 'off', sandboxEgressAllowlist: ['10.1.0.0/16', '192.168.5.7'] });
  });

  it('refuses an allowlist entry that is not a CIDR range at start', () => {
    expect(() =>
      parseWasmRunnerConfig({ TALON_SANDBOX_EGRESS_ALLOWLIST: '10.0.0.0/8,mirror.local' }, '/srv'),
    ).toThrow(/TALON_SANDBOX_EGRESS_ALLOWLIST/);
  });

  it('refuses any other TALON_SANDBOX value instead of guessing', () => {
    for (const value of ['0', 'false', 'OFF', 'disabled'])
      expect(() => parseWasmRunnerConfig({ TALON_SANDBOX: value }, '/srv')).toThrow(/TALON_SANDBOX/);
  });
});
