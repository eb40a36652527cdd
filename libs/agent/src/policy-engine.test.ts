import { describe, expect, it } from '@jest/globals';
import type { ApprovalRequirement, ToolDefinition, ToolEffect } from '@talon/contracts';
import { AgentConfigError } from './errors/agent-config-error.js';
import { PolicyEngine, type PolicyInput } from './policy-engine.js';
import type { SessionGrants } from './session-grants.js';

function tool(name: string, effects: ToolEffect[], approval: ApprovalRequirement = 'never'): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    effects,
    approval,
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
  };
}

const read = tool('read_file', ['read_filesystem']);
const write = tool('write_file', ['write_filesystem']);
const http = tool('http', ['network', 'use_secret'], 'unless_auto_approved');
const fetch = tool('web_fetch', ['network'], 'unless_auto_approved');
const pay = tool('pay', ['financial'], 'always');
const echo = tool('echo', []);
const shellAlways = tool('shell', ['execute_code'], 'always');

const engine = new PolicyEngine();

type Row = [string, Omit<PolicyInput, 'tool'> & { tool: ToolDefinition }, 'allow' | 'ask' | 'deny', string];
const grants = (value: SessionGrants) => value;

const table: Row[] = [
  ['read-only effect allowed by default', { tool: read }, 'allow', 'default'],
  ['no effect allowed by default', { tool: echo }, 'allow', 'default'],
  ['write asks by default', { tool: write }, 'ask', 'default'],
  ['strictest effect wins (network allow + use_secret ask)', { tool: http }, 'ask', 'default'],
  ['unless_auto_approved asks on a default allow', { tool: fetch }, 'ask', 'requirement'],
  [
    'unless_auto_approved lifted by a tool allow grant',
    { tool: fetch, grants: grants({ byTool: { web_fetch: 'allow' } }) },
    'allow',
    'tool_grant',
  ],
  [
    'unless_auto_approved lifted by effect allow grants',
    { tool: fetch, grants: grants({ byEffect: { network: 'allow' } }) },
    'allow',
    'effect_grant',
  ],
  [
    'a tool grant beats an effect default',
    { tool: write, grants: grants({ byTool: { write_file: 'allow' } }) },
    'allow',
    'tool_grant',
  ],
  [
    'a tool grant beats an effect grant',
    {
      tool: write,
      grants: grants({ byEffect: { write_filesystem: 'ask' }, byTool: { write_file: 'allow' } }),
    },
    'allow',
    'tool_grant',
  ],
  [
    'a tool ask grant beats an effect allow',
    { tool: read, grants: grants({ byTool: { read_file: 'ask' } }) },
    'ask',
    'tool_grant',
  ],
  [
    'effect allow grant lifts a default ask',
    { tool: write, grants: grants({ byEffect: { write_filesystem: 'allow' } }) },
    'allow',
    'effect_grant',
  ],
  [
    'tool deny beats everything',
    { tool: read, grants: grants({ byTool: { read_file: 'deny' } }), callApproved: true },
    'deny',
    'tool_grant',
  ],
  [
    'effect deny beats a tool allow',
    {
      tool: write,
      grants: grants({ byEffect: { write_filesystem: 'deny' }, byTool: { write_file: 'allow' } }),
    },
    'deny',
    'effect_grant',
  ],
  [
    'always is not lifted by an allow grant',
    { tool: pay, grants: grants({ byTool: { pay: 'allow' }, byEffect: { financial: 'allow' } }) },
    'ask',
    'requirement',
  ],
  ['always is lifted by a per-call approval', { tool: pay, callApproved: true }, 'allow', 'call_approval'],
  ['a per-call approval lifts a default ask', { tool: write, callApproved: true }, 'allow', 'call_approval'],
  [
    'requirement from approvalFor(params) overrides the definition',
    { tool: echo, requirement: 'always' },
    'ask',
    'requirement',
  ],
  ['autonomous turns ask into deny', { tool: write, autonomous: true }, 'deny', 'autonomous'],
  [
    'autonomous with a grant runs',
    { tool: write, autonomous: true, grants: grants({ byTool: { write_file: 'allow' } }) },
    'allow',
    'tool_grant',
  ],
  [
    'autonomous always without pre-approval is denied',
    { tool: shellAlways, autonomous: true, grants: grants({ byTool: { shell: 'allow' } }) },
    'deny',
    'autonomous',
  ],
  [
    'autonomous always with pre-approval runs',
    { tool: shellAlways, autonomous: true, callApproved: true },
    'allow',
    'call_approval',
  ],
  [
    'outside the ceiling is denied even with a grant',
    {
      tool: read,
      grants: grants({ byTool: { read_file: 'allow' } }),
      ceiling: {
        visible: new Set(['echo']),
        removed: new Map([['read_file', 'installed skill "x" narrows tools to read-only']]),
      },
    },
    'deny',
    'ceiling',
  ],
  [
    'inside the ceiling follows the rules',
    { tool: echo, ceiling: { visible: new Set(['echo']), removed: new Map() } },
    'allow',
    'default',
  ],
];

describe('PolicyEngine', () => {
  it.each(table)('%s', (_name, input, action, source) => {
    const decision = engine.decide(input);
    expect(decision.action).toBe(action);
    expect(decision.source).toBe(source);
    expect(decision.reason.length).toBeGreaterThan(5);
  });

  it('says why a tool outside the ceiling is refused', () => {
    const removed = engine.decide({
      tool: read,
      ceiling: { visible: new Set(), removed: new Map([['read_file', 'not allowed by skill "notes"']]) },
    });
    expect(removed.reason).toBe('removed by skill attenuation: not allowed by skill "notes"');
    const unseen = engine.decide({ tool: read, ceiling: { visible: new Set(), removed: new Map() } });
    expect(unseen.reason).toContain('not among the tools offered');
  });

  it('applies config defaults and config grants below session grants', () => {
    const custom = new PolicyEngine({
      effectDefaults: { network: 'ask' },
      noEffectAction: 'ask',
      grants: { byTool: { write_file: 'allow' } },
    });
    expect(custom.decide({ tool: tool('get', ['network']) }).action).toBe('ask');
    expect(custom.decide({ tool: echo }).action).toBe('ask');
    expect(custom.decide({ tool: write }).action).toBe('allow');
    expect(custom.decide({ tool: write, grants: { byTool: { write_file: 'deny' } } }).action).toBe('deny');
    expect(custom.defaultFor('read_filesystem')).toBe('allow');
  });

  it('rejects bad config with a readable error', () => {
    expect(() => new PolicyEngine({ effectDefaults: { teleport: 'allow' } as never })).toThrow(
      AgentConfigError,
    );
    expect(() => new PolicyEngine({ effectDefaults: { network: 'maybe' as never } })).toThrow(
      /allow, ask or deny/,
    );
  });
});
