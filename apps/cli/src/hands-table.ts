import type { HandInstancesReply, HandsListReply, HandSummary } from '@talon/contracts';

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** `talon hands`: one row per hand (ready or why not), then the refused files with their reasons. */
export function formatHandsTable(reply: HandsListReply): string {
  const rows = [['ID', 'DIALECT', 'VERSION', 'READY', 'APPROVAL', 'TOOLS', 'DESCRIPTION']];
  for (const hand of reply.hands) {
    rows.push([
      hand.id,
      hand.dialect,
      hand.version,
      hand.gating.eligible ? 'yes' : 'no',
      hand.requiresApproval ? 'required' : '-',
      hand.tools.length === 0 ? '-' : shorten(hand.tools.join(','), 48),
      shorten(hand.description, 60),
    ]);
  }
  const lines = table(rows);
  for (const hand of reply.hands.filter((candidate) => !candidate.gating.eligible))
    lines.push('', `${hand.id} is not ready: ${hand.gating.reasons.join('; ')}`);
  if (reply.rejected.length > 0) {
    lines.push('', 'Refused files:');
    for (const rejection of reply.rejected)
      lines.push(`  ${rejection.path}: ${rejection.reason} — ${rejection.message}`);
  }
  return lines.join('\n');
}

/** `talon hands show <id>`: one hand in words. */
export function formatHand(hand: HandSummary): string {
  const lines = [
    `${hand.name} (${hand.id}) ${hand.version} — ${hand.dialect}${hand.system ? ', system hand' : ''}`,
    hand.description,
    '',
    `ready:     ${hand.gating.eligible ? 'yes' : `no (${hand.gating.reasons.join('; ')})`}`,
    `approval:  ${hand.requiresApproval ? 'required before each run' : 'not required'}`,
    `tools:     ${hand.tools.join(', ') || '-'}`,
  ];
  if (hand.triggers.schedule)
    lines.push(
      `schedule:  ${hand.triggers.schedule.cron}${hand.triggers.schedule.timezone ? ` (${hand.triggers.schedule.timezone})` : ''}`,
    );
  for (const requirement of hand.requires)
    lines.push(
      `requires:  ${requirement.kind} ${requirement.name}${requirement.optional ? ' (optional)' : ''}`,
    );
  for (const setting of hand.settings) {
    const choices =
      setting.kind === 'select' ? ` [${setting.options.map((option) => option.value).join(' | ')}]` : '';
    const fallback = setting.default === undefined ? '' : ` = ${JSON.stringify(setting.default)}`;
    lines.push(`setting:   ${setting.key} (${setting.kind})${choices}${fallback} — ${setting.label}`);
  }
  for (const metric of hand.metrics)
    lines.push(`metric:    ${metric.label} ← memory ${metric.memoryKey} (${metric.format})`);
  for (const warning of hand.warnings) lines.push(`warning:   ${warning}`);
  return lines.join('\n');
}

/** The hands part of `talon status`: how many hands are ready, instances by state, runs waiting for a person. */
export function formatHandsStatus(
  reply: HandsListReply,
  instances: HandInstancesReply,
  awaitingApproval: number,
): string {
  const ready = reply.hands.filter((hand) => hand.gating.eligible).length;
  const byState = new Map<string, number>();
  for (const instance of instances.instances)
    byState.set(instance.state, (byState.get(instance.state) ?? 0) + 1);
  const states = [...byState].map(([state, count]) => `${count} ${state}`).join(', ') || 'none';
  const refused = reply.rejected.length > 0 ? `, ${reply.rejected.length} file(s) refused` : '';
  return `Hands: ${reply.hands.length} (${ready} ready${refused}); instances: ${states}; runs awaiting approval: ${awaitingApproval}`;
}
