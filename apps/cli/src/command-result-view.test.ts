import { describe, expect, it } from '@jest/globals';
import { oneLine, renderCommandResult } from './command-result-view.js';
import { terminalStyle } from './terminal-style.js';

const options = { style: terminalStyle(false) };

describe('renderCommandResult', () => {
  it('lays /tools out as a table with one line per tool and the count', () => {
    const text = renderCommandResult(
      'tools',
      {
        tools: [
          {
            name: 'read_file',
            description: 'Reads a file\nfrom the workspace.',
            approval: 'never',
            effects: ['read'],
          },
          { name: 'shell', description: 'x'.repeat(300), approval: 'always', effects: ['exec', 'write'] },
        ],
        filter: 'e',
      },
      options,
    )!;
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+APPROVAL\s+EFFECTS\s+DESCRIPTION$/);
    expect(lines[1]).toMatch(/^read_file\s+never\s+read\s+Reads a file from the workspace\.$/);
    expect(lines[2]).toMatch(/^shell\s+always\s+exec,write\s+x+…$/);
    expect(lines[2]!.length).toBeLessThan(120);
    expect(lines[3]).toBe('2 tools matching "e"');
    expect(text).not.toContain('{');
  });

  it('cuts every line to the terminal width and styles only the header', () => {
    const text = renderCommandResult(
      'tools',
      {
        tools: [
          { name: 'echo', description: 'Echoes the message back, for tests', approval: 'never', effects: [] },
        ],
      },
      { style: terminalStyle(true), width: 30 },
    )!;
    const [header, row] = text.split('\n');
    expect(header!.startsWith(`${String.fromCharCode(27)}[1mTOOL`)).toBe(true);
    expect(row).toHaveLength(30);
    expect(row!.endsWith('…')).toBe(true);
  });

  it('lays /skills out with trust and why a gated skill is unavailable', () => {
    const text = renderCommandResult(
      'skills',
      {
        skills: [
          {
            name: 'review',
            description: 'Reviews code',
            trust: 'TRUSTED',
            gating: { eligible: true, reasons: [] },
          },
          {
            name: 'deploy',
            description: 'Deploys',
            trust: 'INSTALLED',
            gating: { eligible: false, reasons: ['needs binary kubectl'] },
          },
        ],
        rejected: [{}],
      },
      options,
    )!;
    expect(text).toMatch(/^SKILL\s+TRUST\s+STATUS\s+DESCRIPTION\n/);
    expect(text).toMatch(/review\s+trusted\s+ready\s+Reviews code/);
    expect(text).toMatch(/deploy\s+installed\s+gated: needs binary kubectl\s+Deploys/);
    expect(text).toContain('2 skills (1 rejected)');
    expect(renderCommandResult('skills', { skills: [], filter: 'zzz' }, options)).toBe(
      '0 skills matching "zzz"',
    );
  });

  it('lists pending approvals with their age, or says there are none', () => {
    const now = Date.UTC(2027, 0, 1, 12, 0, 0);
    const text = renderCommandResult(
      'approvals',
      {
        approvals: [
          {
            id: 'ap-1',
            tool: 'write_file',
            params: { path: 'note.md' },
            reason: 'writes',
            createdAt: now - 120_000,
          },
        ],
      },
      { ...options, now },
    )!;
    expect(text).toMatch(
      /^APPROVAL\s+TOOL\s+PARAMS\s+ASKED\s+REASON\nap-1\s+write_file\s+\{"path":"note\.md"\}\s+2 minutes ago\s+writes/,
    );
    expect(text).toContain('1 approval waiting');
    expect(renderCommandResult('approvals', { approvals: [] }, options)).toBe(
      'no approvals waiting in this session',
    );
  });

  it('shows a /call output once: the string as is, JSON pretty, long output cut; nothing more for a failure', () => {
    expect(renderCommandResult('call', { ok: true, reply: { output: 'hi' } }, options)).toBe('hi');
    expect(renderCommandResult('call', { ok: true, reply: { output: { a: 1 } } }, options)).toBe(
      '{\n  "a": 1\n}',
    );
    const long = renderCommandResult(
      'call',
      { ok: true, reply: { output: Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') } },
      options,
    )!;
    expect(long.split('\n')).toHaveLength(41);
    expect(long).toContain('… 10 more lines');
    expect(renderCommandResult('call', { ok: false, content: 'denied' }, options)).toBeUndefined();
  });

  it('shortens anything to one line', () => {
    expect(oneLine('a\n  b')).toBe('a b');
    expect(oneLine({ k: 'v' })).toBe('{"k":"v"}');
    expect(oneLine('abcdef', 4)).toBe('abc…');
  });
});
