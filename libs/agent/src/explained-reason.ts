import type { ToolApprovalAssessment } from '@talon/contracts';

/**
 * The reason a person reads when asked to approve: the policy's, then the tool's own (a shell command's
 * reasons), then every program the call runs, so nothing a command hides goes unseen.
 */
export function explainedReason(reason: string, assessment: ToolApprovalAssessment | undefined): string {
  if (!assessment) return reason;
  const parts = [reason, ...assessment.reasons];
  if (assessment.programs?.length) parts.push(`runs: ${assessment.programs.join(', ')}`);
  return parts.join('; ');
}
