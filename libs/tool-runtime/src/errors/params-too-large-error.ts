import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Which params limit was exceeded. */
export type ParamLimitName = 'maxBytes' | 'maxDepth' | 'maxKeys' | 'maxArrayLength';

/** The params exceed a size, depth, key-count or array-length limit; checked before schema validation. */
export class ParamsTooLargeError extends TalonError {
  declare readonly details: { tool: string; limit: ParamLimitName; max: number; path: string };

  constructor(tool: string, limit: ParamLimitName, max: number, path: string) {
    super(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `Parameters of tool "${tool}" exceed ${limit} = ${max} at ${path || '(root)'}; send smaller parameters.`,
      { details: { tool, limit, max, path } },
    );
  }
}
