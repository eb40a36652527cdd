import type { Hand, HandSettingValues } from '@talon/contracts';
import { settingValueProblem } from './hand-sections.js';
import { HandSettingError } from './hand-setting-error.js';

/**
 * The value of every setting of a hand: the chosen ones checked against their declarations, the others
 * from their defaults (a text without default is empty, a toggle false, a select its first option).
 *
 * @throws HandSettingError for an unknown key or a value outside the setting's type or options.
 */
export function resolveHandSettings(hand: Hand, chosen: HandSettingValues = {}): HandSettingValues {
  const declared = new Map(hand.settings.map((setting) => [setting.key, setting]));
  for (const key of Object.keys(chosen)) {
    if (!declared.has(key))
      throw new HandSettingError(
        hand.id,
        `it has no setting "${key}" (settings: ${[...declared.keys()].join(', ') || 'none'})`,
      );
  }
  const values: HandSettingValues = {};
  for (const setting of hand.settings) {
    const value =
      chosen[setting.key] ?? setting.default ?? defaultOf(setting.kind, setting.options[0]?.value);
    const problem = settingValueProblem(setting, value);
    if (problem) throw new HandSettingError(hand.id, problem);
    values[setting.key] = value;
  }
  return values;
}

function defaultOf(kind: 'select' | 'text' | 'toggle', firstOption: string | undefined): string | boolean {
  if (kind === 'toggle') return false;
  if (kind === 'select') return firstOption ?? '';
  return '';
}

/**
 * The system prompt of a run: the hand's prompt followed by its settings in words, so that the model acts
 * on them ("Research depth: Thorough"). Select values are shown with their labels.
 */
export function renderHandSystemPrompt(hand: Hand, values: HandSettingValues): string {
  if (hand.settings.length === 0) return hand.agent.systemPrompt;
  const lines = hand.settings.map((setting) => {
    const value = values[setting.key];
    const shown =
      setting.kind === 'toggle'
        ? value
          ? 'on'
          : 'off'
        : setting.kind === 'select'
          ? (setting.options.find((option) => option.value === value)?.label ?? String(value))
          : String(value ?? '') || '(not set)';
    return `- ${setting.label} (${setting.key}): ${shown}`;
  });
  return `${hand.agent.systemPrompt}\n\n## Settings chosen for this run\n${lines.join('\n')}`;
}
