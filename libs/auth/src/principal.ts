import type { ApiScope } from '@talon/contracts';

/** The verified caller of an API call. */
export interface Principal {
  /** Token id (`tok_…`), or `anonymous` when authentication is switched off. */
  id: string;
  /** The token's name, for audit records and logs. */
  name: string;
  scope: ApiScope;
}
