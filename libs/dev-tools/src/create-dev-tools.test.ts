import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { Value } from '@sinclair/typebox/value';
import { ToolDefinitionSchema } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { createWorkspaceFixture, type WorkspaceFixture } from '../test/workspace-fixture.js';
import { createDevTools } from './create-dev-tools.js';

let fixture: WorkspaceFixture;

beforeEach(() => {
  fixture = createWorkspaceFixture();
});
afterEach(() => fixture.cleanup());

describe('createDevTools', () => {
  it('returns the seven container-domain built-ins with valid definitions and JSON Schemas', () => {
    const tools = createDevTools({ root: fixture.root });
    expect(tools.map((tool) => tool.definition.name)).toEqual([
      'shell',
      'read_file',
      'write_file',
      'list_dir',
      'glob',
      'grep',
      'apply_patch',
    ]);
    const ajv = new Ajv({ strict: true });
    for (const tool of tools) {
      expect(Value.Check(ToolDefinitionSchema, tool.definition)).toBe(true);
      expect(tool.definition).toMatchObject({ domain: 'container', source: 'builtin' });
      expect(() => ajv.compile(tool.definition.parameters)).not.toThrow();
    }
    const readOnly = tools
      .filter((tool) => tool.definition.approval === 'never')
      .map((tool) => tool.definition.name);
    expect(readOnly).toEqual(['read_file', 'list_dir', 'glob', 'grep']);
  });

  it('refuses invalid options with a readable typed error', () => {
    expect(() => createDevTools({ root: 'relative/path' })).toThrow(/absolute path/);
    expect(() => createDevTools({ root: '/no/such/talon/root' })).toThrow(/does not exist/);
    expect(() => createDevTools({ root: fixture.root, caps: { maxReadBytes: -1 } })).toThrow(
      /positive integer/,
    );
    expect(() => createDevTools({ root: fixture.root, caps: { nope: 1 } as never })).toThrow(/unknown cap/);
    try {
      createDevTools({ root: '/no/such/talon/root' });
    } catch (error) {
      expect(TalonError.isInstance(error) && error.code).toBe('SCHEMA_VIOLATION');
    }
  });
});
