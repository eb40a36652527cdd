import { describe, expect, it } from '@jest/globals';
import { SUBJECTS, ToolCallRequestSchema, type ToolCallRequest } from '@talon/contracts';
import { validatePayload } from './payload-validator.js';

const call = (ack: unknown) => ({ callId: 'c1', tool: 'echo', params: {}, timeoutMs: 1000, ack });

describe("a tool call's ack subject", () => {
  it('takes one requester token and one call token under talon.tools.v1.ack', () => {
    const ack = `${SUBJECTS.toolAck('requester_1')}.0b9f3c1e-8d6a-4c1f-9a57-1f2e3d4c5b6a`;
    expect(validatePayload<ToolCallRequest>(ToolCallRequestSchema, call(ack)).ack).toBe(ack);
  });

  it.each([
    ['a reply subject', '_INBOX_orchestrator.abc.1'],
    ['another service subject', 'talon.secrets.v1.get'],
    ['a wildcard', 'talon.tools.v1.ack.requester.*'],
    ['a missing call token', 'talon.tools.v1.ack.requester'],
    ['an extra token', 'talon.tools.v1.ack.requester.call.more'],
    ['the old boolean', true],
  ])('refuses %s with a typed error', (_label, ack) => {
    expect(() => validatePayload(ToolCallRequestSchema, call(ack), 'The tool call')).toThrow(
      expect.objectContaining({ code: 'SCHEMA_VIOLATION', message: expect.stringContaining('/ack') }),
    );
  });
});
