/** A secret found in text: its kind (`openai_api_key`, `known_secret`, …) and its span in the original text. */
export interface LeakFinding {
  kind: string;
  start: number;
  end: number;
}

/** The shape the tool-runtime pipeline needs to strip secrets from tool output. */
export interface LeakScanner {
  /** Replaces every secret in `text` (pattern matches and exact `knownSecrets`) and says what was replaced. */
  redact(text: string, knownSecrets?: readonly string[]): { text: string; findings: LeakFinding[] };
}
