import { describe, expect, it } from '@jest/globals';
import { mapMcpToolResult } from './mcp-result-mapper.js';

describe('mapMcpToolResult', () => {
  it('maps text, images, embedded resources and resource links; joins text for the model', () => {
    const png = Buffer.from('fake png bytes').toString('base64');
    const output = mapMcpToolResult({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'embedded' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: png } },
        { type: 'resource_link', uri: 'demo://r/1', name: 'r1', description: 'a link' },
      ],
      structuredContent: { answer: 42 },
    });
    expect(output.text).toBe('first\n\nembedded');
    expect(output.content).toEqual([
      { type: 'text', text: 'first' },
      { type: 'image', mimeType: 'image/png', dataBytes: 14, data: png },
      { type: 'resource', uri: 'file:///a.txt', mimeType: 'text/plain', text: 'embedded' },
      { type: 'resource', uri: 'file:///b.bin', dataBytes: 14, data: png },
      { type: 'resource_link', uri: 'demo://r/1', name: 'r1', description: 'a link' },
    ]);
    expect(output.structuredContent).toEqual({ answer: 42 });
    expect(output.isError).toBe(false);
  });

  it('summarises binary data over the cap and flags errors', () => {
    const data = Buffer.alloc(2048).toString('base64');
    const output = mapMcpToolResult(
      { content: [{ type: 'audio', mimeType: 'audio/wav', data }], isError: true },
      { maxInlineBinaryBytes: 1024 },
    );
    expect(output.content).toEqual([{ type: 'audio', mimeType: 'audio/wav', dataBytes: 2048 }]);
    expect(output.isError).toBe(true);
  });

  it('names unknown content types instead of dropping them and survives a missing content list', () => {
    const odd = mapMcpToolResult({ content: [{ type: 'hologram' } as never] });
    expect(odd.content).toEqual([{ type: 'unknown', originalType: 'hologram' }]);
    expect(mapMcpToolResult({} as never)).toEqual({ content: [], text: '', isError: false });
  });
});
