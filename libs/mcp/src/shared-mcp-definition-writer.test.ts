import { describe, expect, it } from '@jest/globals';
import type { SharedMcpServerRecord } from '@talon/contracts';
import { MemoryRecordBucket } from '../test/support/memory-record-bucket.js';
import { SharedMcpDefinitionWriter } from './shared-mcp-definition-writer.js';

const writerWith = (fileNames: string[] = []) => {
  const bucket = new MemoryRecordBucket<SharedMcpServerRecord>();
  return { bucket, writer: new SharedMcpDefinitionWriter(bucket, () => new Set(fileNames)) };
};

describe('SharedMcpDefinitionWriter', () => {
  it('stores a definition as written (placeholders kept) and says whether it was new', async () => {
    const { bucket, writer } = writerWith();
    const definition = { name: 'x', transport: { type: 'stdio' as const, command: '${NODE}' } };
    expect(await writer.add(definition)).toMatchObject({ change: 'added', source: 'api' });
    expect(await writer.add(definition)).toMatchObject({ change: 'updated' });
    expect(bucket.get('x')?.definition).toEqual(definition);
    expect(await writer.remove('x')).toMatchObject({ change: 'removed' });
    expect(bucket.get('x')).toBeUndefined();
  });

  it.each([
    [{ type: 'stdio' as const, command: '/x', env: { GITHUB_TOKEN: 'abc' } }, 'transport.env.GITHUB_TOKEN'],
    [
      { type: 'sse' as const, url: 'https://a.example/sse', headers: { 'X-Api-Key': 'abc' } },
      'transport.headers.X-Api-Key',
    ],
    [
      { type: 'stdio' as const, command: '/x', args: ['--key', 'sk-ant-abcdefghijklmnopqrstuvwxyz012345'] },
      'transport.args[1]',
    ],
    [{ type: 'streamable-http' as const, url: 'https://user:pw@a.example/mcp' }, 'transport.url'],
  ])('refuses a plaintext credential (%j) naming the field', async (transport, field) => {
    const { bucket, writer } = writerWith();
    await expect(writer.add({ name: 'leaky', transport })).rejects.toMatchObject({
      code: 'SCHEMA_VIOLATION',
      details: { field },
    });
    expect(bucket.view.size).toBe(0);
  });

  it('accepts a bearer secret by name and refuses file-defined names', async () => {
    const { writer } = writerWith(['from-file']);
    await expect(
      writer.add({
        name: 'remote',
        transport: { type: 'streamable-http', url: 'https://a.example/mcp' },
        auth: { type: 'bearer', secret: 'remote-token' },
      }),
    ).resolves.toMatchObject({ change: 'added' });
    await expect(
      writer.add({ name: 'from-file', transport: { type: 'stdio', command: '/x' } }),
    ).rejects.toMatchObject({ code: 'NAME_CONFLICT' });
    await expect(writer.remove('from-file')).rejects.toMatchObject({ code: 'NAME_CONFLICT' });
    await expect(writer.remove('nothing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses an unknown placeholder as a schema violation', async () => {
    const { writer } = writerWith();
    await expect(
      writer.add({ name: 'typo', transport: { type: 'stdio', command: '${NOPE}' } }),
    ).rejects.toMatchObject({ code: 'SCHEMA_VIOLATION' });
  });
});
