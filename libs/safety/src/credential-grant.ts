import type { ToolCallRequest } from '@talon/contracts';

/**
 * A credential granted to one call (the same shape as `CredentialGrant` in `@talon/tool-runtime`, taken
 * from the wire contract so this library needs nothing above contracts).
 */
export type CredentialGrant = NonNullable<ToolCallRequest['grants']>[number];
