import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A slash command was unknown or malformed; the message shows the right usage. */
export class SlashCommandError extends TalonError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(
      command === undefined || KNOWN.has(command) ? ERROR_CODES.SCHEMA_VIOLATION : ERROR_CODES.UNKNOWN_METHOD,
      message,
      {
        details: command === undefined ? {} : { command },
      },
    );
  }
}

const KNOWN = new Set(['tools', 'call', 'skills', 'skill', 'approvals', 'help']);
