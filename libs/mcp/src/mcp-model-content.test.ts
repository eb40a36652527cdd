import { describe, expect, it } from '@jest/globals';
import { isMcpToolOutput, renderMcpOutputForModel } from './mcp-model-content.js';
import { mapMcpToolResult } from './mcp-result-mapper.js';
import {
  capToolDescription,
  DESCRIPTION_CUT_MARKER,
  MAX_MCP_TOOL_DESCRIPTION_CHARS,
} from './mcp-tool-adapter.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const WAV = Buffer.from('RIFF0000WAVEfmt ').toString('base64');

describe('MCP content for the model', () => {
  const output = mapMcpToolResult({
    content: [
      { type: 'text', text: 'Here is the chart.' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'audio', mimeType: 'audio/wav', data: WAV },
      { type: 'resource_link', uri: 'file:///r/report.md', name: 'report.md', mimeType: 'text/markdown' },
      {
        type: 'resource',
        resource: { uri: 'demo://text/1', mimeType: 'text/plain', text: 'embedded words' },
      },
      { type: 'resource', resource: { uri: 'demo://blob/1', blob: PNG } },
    ],
    structuredContent: { rows: 3 },
  });

  it('keeps text once, names every other item in a line and keeps image and audio typed', () => {
    expect(isMcpToolOutput(output)).toBe(true);
    expect(isMcpToolOutput({ content: 'x' })).toBe(false);
    const rendered = renderMcpOutputForModel(output);
    expect(rendered.text.match(/Here is the chart\./g)).toHaveLength(1);
    expect(rendered.text).toMatch(/\[image: image\/png, 16 bytes, artifact sha256:[0-9a-f]{64}\]/);
    expect(rendered.text).toMatch(/\[audio: audio\/wav, 16 bytes, artifact sha256:[0-9a-f]{64}\]/);
    expect(rendered.text).toContain('[resource link: report.md <file:///r/report.md> text/markdown;');
    expect(rendered.text).toContain('[resource demo://text/1 (text/plain)]\nembedded words');
    expect(rendered.text).toMatch(/\[resource demo:\/\/blob\/1: 16 bytes of binary data, artifact sha256:/);
    expect(rendered.text).toContain('[structured content]\n{"rows":3}');
    expect(rendered.text).not.toContain(PNG);
    expect(rendered.media.map((item) => [item.type, item.mimeType, item.bytes])).toEqual([
      ['image', 'image/png', 16],
      ['audio', 'audio/wav', 16],
    ]);
  });

  it('does not repeat structured content a text item already carries', () => {
    const rendered = renderMcpOutputForModel(
      mapMcpToolResult({ content: [{ type: 'text', text: '{"rows": 3}' }], structuredContent: { rows: 3 } }),
    );
    expect(rendered.text).toBe('{"rows": 3}');
  });

  it('says when an image was over the inline cap instead of inventing a reference', () => {
    const big = mapMcpToolResult(
      { content: [{ type: 'image', mimeType: 'image/png', data: PNG }] },
      { maxInlineBinaryBytes: 4 },
    );
    const rendered = renderMcpOutputForModel(big);
    expect(rendered.text).toBe('[image: image/png, 16 bytes, not kept: over the inline cap]');
    expect(rendered.media).toEqual([]);
  });
});

describe('MCP tool descriptions', () => {
  it('cuts a long description with a visible marker and leaves short ones alone', () => {
    expect(capToolDescription('short')).toBe('short');
    const cut = capToolDescription('x'.repeat(10_000));
    expect(cut).toHaveLength(MAX_MCP_TOOL_DESCRIPTION_CHARS);
    expect(cut.endsWith(DESCRIPTION_CUT_MARKER)).toBe(true);
  });
});
