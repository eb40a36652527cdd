import { hash } from 'node:crypto';
import { explainedReason, type ApprovalQueue, type GrantStore, type PolicyEngine } from '@talon/agent';
import { ERROR_CODES, type ToolsCallReply } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { canonicalJson, redactParams } from '@talon/tool-runtime';
import type { DispatchRequest, ToolDispatcher } from '../tools/tool-dispatcher.js';

/** A call from an agent that is not inside a chat turn (an MCP client), judged by the session's policy. */
export interface GatedCall extends DispatchRequest {
  sessionId: string;
}

/**
 * The agent policy for tool calls that do not come from the loop (MCP clients): deny → POLICY_DENIED;
 * ask → an approval is created and the call answers APPROVAL_REQUIRED with its id; once a person approves
 * it, the same call (same tool and params) runs. Allowed calls go through the dispatcher as usual.
 */
export class PolicyGate {
  constructor(
    private readonly dispatcher: ToolDispatcher,
    private readonly policy: PolicyEngine,
    /** The session's grants, read by every gated call (kept: see `CachedSessionGrants`). */
    private readonly grants: Pick<GrantStore, 'get'>,
    private readonly approvals: ApprovalQueue,
  ) {}

  async call(request: GatedCall): Promise<ToolsCallReply> {
    // Resolve and validate first: a call that could never run is refused before anyone is asked.
    const { definition, params } = this.dispatcher.check(request);
    // Independent reads, at once: the domain's verdict and the session's grants.
    const [assessment, grants] = await Promise.all([
      this.dispatcher.assessApproval(definition.name, params),
      this.grants.get(request.sessionId),
    ]);
    const input = { tool: definition, requirement: assessment?.approval, grants };
    let decision = this.policy.decide(input);
    if (decision.action === 'ask') {
      // An approval of this very call only turns an ask into an allow, so only an ask looks for one.
      // One approval per distinct call: the same tool with the same params maps to the same approval.
      // One-shot hash over one string: half the cost of a Hash object with three updates (measured).
      const callKey = `gate:${hash('sha256', `${request.tool}\n${canonicalJson(params)}`, 'hex').slice(0, 32)}`;
      const existing = await this.approvals.findByCall(request.sessionId, callKey);
      if (existing?.status === 'approved') decision = this.policy.decide({ ...input, callApproved: true });
      if (decision.action === 'ask') {
        const approval =
          existing?.status === 'pending'
            ? existing
            : await this.approvals.request({
                sessionId: request.sessionId,
                callId: callKey,
                tool: request.tool,
                params: redactParams(params, definition.sensitiveParams),
                reason: explainedReason(decision.reason, assessment),
              });
        throw new TalonError(
          ERROR_CODES.APPROVAL_REQUIRED,
          `"${request.tool}" needs a person's approval (${decision.reason}). Approve it with approvals.resolve {"id": "${approval.id}"} and call again.`,
          {
            details: {
              approvalId: approval.id,
              tool: request.tool,
              expiresAt: new Date(approval.expiresAt).toISOString(),
            },
          },
        );
      }
    }
    if (decision.action === 'deny') {
      throw new TalonError(ERROR_CODES.POLICY_DENIED, `Refused by policy: ${decision.reason}.`, {
        details: { tool: request.tool },
      });
    }
    return this.dispatcher.call({ ...request, params });
  }
}
