import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ERROR_CODES,
  SessionsCreateRequestSchema,
  SessionsGetRequestSchema,
  SessionsListRequestSchema,
  type Session,
  type SessionDetail,
  type SessionsCreateRequest,
  type SessionsGetRequest,
  type SessionsListRequest,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { Database } from '@talon/persistence';
import { ApiRouter } from '../api/api-router.js';
import { DATABASE } from '../config/orchestrator.constants.js';
import { PrismaSessionStore } from './prisma-session-store.js';
import type { ApiCallContext } from '../api/api-method.js';
import { SessionAccess } from '../auth/session-access.js';

type SessionRow = { id: string; title: string; autonomous: boolean; createdAt: Date; updatedAt: Date };

function toSession(row: SessionRow, messageCount?: number): Session {
  return {
    id: row.id,
    title: row.title,
    autonomous: row.autonomous,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(messageCount === undefined ? {} : { messageCount }),
  };
}

/** `sessions.create`, `sessions.get`, `sessions.list`. */
@Injectable()
export class SessionsApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(DATABASE) private readonly database: Database,
    private readonly access: SessionAccess,
  ) {}

  onModuleInit(): void {
    const prisma = this.database.prisma;
    const messages = new PrismaSessionStore(this.database);
    this.router.register({
      name: 'sessions.create',
      scope: 'agent',
      description:
        'Creates a chat session. `autonomous: true` means no person is attached: calls that need asking are denied.',
      request: SessionsCreateRequestSchema,
      handle: async (request: SessionsCreateRequest, context: ApiCallContext): Promise<Session> =>
        toSession(
          await prisma.session.create({
            data: {
              title: request.title ?? '',
              autonomous: request.autonomous ?? false,
              ownerId: this.access.ownerFor(context.principal),
            },
          }),
          0,
        ),
    });
    this.router.register({
      name: 'sessions.get',
      scope: 'agent',
      description: 'One session, with its messages when includeMessages is true.',
      request: SessionsGetRequestSchema,
      handle: async (request: SessionsGetRequest, context: ApiCallContext): Promise<SessionDetail> => {
        await this.access.assertCanUse(context.principal, request.id);
        const row = await prisma.session.findUnique({
          where: { id: request.id },
          include: { _count: { select: { messages: true } } },
        });
        if (!row)
          throw new TalonError(ERROR_CODES.NOT_FOUND, `No session ${request.id}.`, {
            details: { id: request.id },
          });
        const session = toSession(row, row._count.messages);
        if (!request.includeMessages) return session;
        const stored = await messages.load(request.id);
        return {
          ...session,
          messages: stored.map((entry) => ({
            seq: entry.seq,
            turnId: entry.turnId,
            role: entry.message.role,
            message: entry.message,
            createdAt: new Date(entry.createdAt).toISOString(),
          })),
        };
      },
    });
    this.router.register({
      name: 'sessions.list',
      scope: 'agent',
      description: 'Sessions, most recently active first.',
      request: SessionsListRequestSchema,
      handle: async (
        request: SessionsListRequest,
        context: ApiCallContext,
      ): Promise<{ sessions: Session[] }> => {
        const rows = await prisma.session.findMany({
          where: this.access.ownerFilter(context.principal),
          orderBy: { updatedAt: 'desc' },
          take: request.limit ?? 50,
          include: { _count: { select: { messages: true } } },
        });
        return { sessions: rows.map((row) => toSession(row, row._count.messages)) };
      },
    });
  }
}
