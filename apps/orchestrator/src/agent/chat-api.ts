import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ApprovalQueue } from '@talon/agent';
import {
  ApprovalsListRequestSchema,
  ApprovalsResolveRequestSchema,
  AuditListRequestSchema,
  ChatSendRequestSchema,
  EmptyRequestSchema,
  type ApprovalsListRequest,
  type ApprovalsResolveRequest,
  type AuditListRequest,
  type ChatSendRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import type { AuditLog } from '../audit/audit-log.js';
import { APPROVAL_QUEUE, AUDIT_LOG, CHAT_SERVICE } from '../config/orchestrator.constants.js';
import type { ChatService } from './chat-service.js';
import { SessionAccess } from '../auth/session-access.js';

/** `chat.send`, `approvals.list`, `approvals.resolve`, `audit.verify`, `audit.list`. */
@Injectable()
export class ChatApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(CHAT_SERVICE) private readonly chat: ChatService,
    @Inject(APPROVAL_QUEUE) private readonly approvals: ApprovalQueue,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
    private readonly access: SessionAccess,
  ) {}

  onModuleInit(): void {
    this.router.register({
      name: 'chat.send',
      scope: 'agent',
      description:
        'Sends one user message and runs the turn. Events stream on talon.events.v1.session.<id> (SSE and gRPC stream them too); the reply says how the turn ended.',
      request: ChatSendRequestSchema,
      handle: async (request: ChatSendRequest, context: ApiCallContext) => {
        await this.access.assertCanUse(context.principal, request.sessionId);
        return this.chat.send(request.sessionId, request.message);
      },
    });
    this.router.register({
      name: 'approvals.list',
      scope: 'agent',
      description: 'Pending approvals, oldest first, of one session or of all.',
      request: ApprovalsListRequestSchema,
      handle: async (request: ApprovalsListRequest, context: ApiCallContext) => {
        if (request.sessionId) await this.access.assertCanUse(context.principal, request.sessionId);
        const pending = await this.approvals.listPending(request.sessionId);
        const usable = await this.access.usable(
          context.principal,
          pending.map((approval) => approval.sessionId),
        );
        return { approvals: pending.filter((approval) => usable.has(approval.sessionId)) };
      },
    });
    this.router.register({
      name: 'approvals.resolve',
      scope: 'agent',
      description:
        'Approves, denies, or approves a tool for the rest of the session (approve_always); the waiting turn resumes.',
      request: ApprovalsResolveRequestSchema,
      handle: async (request: ApprovalsResolveRequest, context: ApiCallContext) => {
        const pending = await this.approvals.get(request.id);
        if (pending) await this.access.assertCanUse(context.principal, pending.sessionId);
        const caller = context.principal
          ? `${context.principal.scope}:${context.principal.id}`
          : context.surface;
        const resolvedBy = request.resolvedBy ? `${request.resolvedBy} (${caller})` : caller;
        const record = await this.approvals.resolve(request.id, request.decision, resolvedBy);
        await this.audit.append({
          kind: 'approval.decision',
          actor: resolvedBy,
          sessionId: record.sessionId,
          callId: record.callId,
          tool: record.tool,
          outcome: request.decision,
          data: { approvalId: record.id },
        });
        if (request.decision === 'approve_always') {
          await this.audit.append({
            kind: 'policy.change',
            actor: resolvedBy,
            sessionId: record.sessionId,
            tool: record.tool,
            outcome: 'allow',
            data: { grant: 'tool', approvalId: record.id },
          });
        }
        return record;
      },
    });
    this.router.register({
      name: 'audit.verify',
      scope: 'read',
      description: 'Walks the hash-chained audit log and names the first edited or deleted row.',
      request: EmptyRequestSchema,
      handle: () => this.audit.verify(),
    });
    this.router.register({
      name: 'audit.list',
      scope: 'operator',
      description:
        "Audit records newest first, a page at a time (`before` = the last page's `nextBefore`), filtered by kind, tool, session or outcome.",
      request: AuditListRequestSchema,
      handle: (request: AuditListRequest) => this.audit.list(request),
    });
  }
}
