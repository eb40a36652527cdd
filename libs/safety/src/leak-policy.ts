import { SecretLeakError } from './errors/secret-leak-error.js';
import { LeakDetector } from './leak-detector.js';
import type { LeakFinding } from './leak-scanner.js';

/** Where text is going: out of Talon in a request, into the model's context, or into a local file. */
export const LEAK_DESTINATIONS = ['egress', 'model', 'local_write'] as const;
/** A destination of text. */
export type LeakDestination = (typeof LEAK_DESTINATIONS)[number];

/** What to do with a secret on its way somewhere. */
export const LEAK_ACTIONS = ['block', 'redact', 'warn'] as const;
/** One leak action. */
export type LeakAction = (typeof LEAK_ACTIONS)[number];

/** A secret never leaves in a request, never reaches the model, and is reported when written locally. */
export const DEFAULT_LEAK_ACTIONS: Readonly<Record<LeakDestination, LeakAction>> = {
  egress: 'block',
  model: 'redact',
  local_write: 'warn',
};

/** Options of a {@link LeakPolicy}. */
export interface LeakPolicyOptions {
  /** Overrides per destination; defaults in {@link DEFAULT_LEAK_ACTIONS}. */
  actions?: Partial<Record<LeakDestination, LeakAction>>;
  detector?: LeakDetector;
}

/** The outcome for one text: the action taken, the text to pass on (redacted or unchanged) and the findings. */
export interface LeakDecision {
  action: LeakAction | 'none';
  text: string;
  findings: LeakFinding[];
}

/** Applies the action chosen by destination. `block` throws {@link SecretLeakError}. */
export class LeakPolicy {
  private readonly actions: Readonly<Record<LeakDestination, LeakAction>>;
  private readonly detector: LeakDetector;

  constructor(options: LeakPolicyOptions = {}) {
    for (const [destination, action] of Object.entries(options.actions ?? {})) {
      if (
        !(LEAK_DESTINATIONS as readonly string[]).includes(destination) ||
        !(LEAK_ACTIONS as readonly string[]).includes(action)
      ) {
        throw new Error(
          `Leak policy: "${destination}: ${action}" is not valid; destinations are ${LEAK_DESTINATIONS.join(', ')} and actions ${LEAK_ACTIONS.join(', ')}.`,
        );
      }
    }
    this.actions = { ...DEFAULT_LEAK_ACTIONS, ...options.actions };
    this.detector = options.detector ?? new LeakDetector();
  }

  /** The action configured for a destination. */
  actionFor(destination: LeakDestination): LeakAction {
    return this.actions[destination];
  }

  /** Scans `text` bound for `destination` and applies the configured action. */
  enforce(text: string, destination: LeakDestination, knownSecrets: readonly string[] = []): LeakDecision {
    const action = this.actions[destination];
    if (action === 'redact') {
      const redacted = this.detector.redact(text, knownSecrets);
      return { action: redacted.findings.length > 0 ? 'redact' : 'none', ...redacted };
    }
    const findings = this.detector.scan(text, knownSecrets);
    if (findings.length === 0) return { action: 'none', text, findings };
    if (action === 'block')
      throw new SecretLeakError(
        destination,
        findings.map((finding) => finding.kind),
      );
    return { action: 'warn', text, findings };
  }
}
