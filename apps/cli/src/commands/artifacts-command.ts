import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Artifact } from '@talon/contracts';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon artifacts --help`. */
export const ARTIFACTS_USAGE = `Usage: pnpm talon artifacts get SHA256 [--out FILE] [--json]

  get SHA256   the image, audio or binary resource a tool result named "artifact sha256:<hex>":
               its type and size, and with --out FILE its bytes written to FILE (--json: the whole reply)`;

/** `talon artifacts get`: media of tool results by their sha256. */
export async function artifactsCommand(
  args: readonly string[],
  print: (line: string) => void,
): Promise<number> {
  const [action, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...rest],
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    print(`${(error as Error).message}\n\n${ARTIFACTS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (action !== 'get' || values.help) {
    print(ARTIFACTS_USAGE);
    return action && !values.help ? 2 : 0;
  }
  const sha256 = positionals[0]?.replace(/^sha256:/, '').toLowerCase();
  if (!sha256 || !/^[0-9a-f]{64}$/.test(sha256)) {
    print(`artifacts get needs the 64-hex sha256 a tool result names.\n\n${ARTIFACTS_USAGE}`);
    return 2;
  }
  return withTalonApi(print, async (call) => {
    const artifact = await call<Artifact>('artifacts.get', { sha256 });
    if (values.out) await writeFile(values.out, Buffer.from(artifact.data, 'base64'));
    if (values.json) print(JSON.stringify(artifact, null, 2));
    else
      print(
        `${artifact.sha256}  ${artifact.mimeType}  ${artifact.bytes} bytes  stored ${artifact.createdAt.slice(0, 19).replace('T', ' ')}${values.out ? `  → ${values.out}` : ''}`,
      );
    return 0;
  });
}
