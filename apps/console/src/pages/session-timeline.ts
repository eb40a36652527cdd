import type { ChatEvent, SessionMessage } from '@talon/contracts';

/** One row of a session's timeline. Tool rows gather a call's start, decision, approval, end and output. */
export type TimelineItem =
  | { key: string; kind: 'user'; turnId: string; text: string }
  | { key: string; kind: 'assistant'; turnId: string; text: string; streaming: boolean }
  | {
      key: string;
      kind: 'tool';
      turnId: string;
      callId: string;
      tool: string;
      params: unknown;
      state: 'running' | 'waiting' | 'ok' | 'failed';
      code?: string;
      message?: string;
      durationMs?: number;
      policy?: { action: string; reason: string; source?: string };
      approval?: { id: string; reason: string; decision?: string; resolvedBy?: string };
      output?: string;
      images?: Array<{ mimeType: string; data: string }>;
    }
  | {
      key: string;
      kind: 'skills';
      turnId: string;
      skills: Array<{ name: string; trust: string; score: number; reasons: string[] }>;
      removedTools: Array<{ name: string; reason: string }>;
    }
  | { key: string; kind: 'note'; turnId: string; text: string; tone: 'error' | 'info' };

type ToolItem = Extract<TimelineItem, { kind: 'tool' }>;

/**
 * The timeline of one session, built from stored messages and then from live events. Items are kept in
 * insertion order and updated in place (a `version` counter for the list, a revision per item for its row),
 * so 10,000 events cost 10,000 map lookups, not 10,000 array copies, and only changed rows re-render.
 */
export class SessionTimeline {
  readonly items: TimelineItem[] = [];
  version = 0;
  private readonly byKey = new Map<string, TimelineItem>();
  private readonly seenTurns = new Set<string>();
  /**
   * Turns whose rows came from stored messages first: their live text may already be stored (a load can
   * read a message whose event is still on its way), so their deltas are not streamed again and a final
   * `message` already shown is not added twice.
   */
  private readonly historyTurns = new Set<string>();
  private readonly revisions = new WeakMap<TimelineItem, number>();
  /** Tool rows closed by their turn's end rather than by their own `tool_call_finished`. */
  private readonly endedWithTurn = new WeakSet<ToolItem>();
  /** Turns whose `turn_started` this page saw: their rows are all live. */
  private readonly liveFromStart = new Set<string>();
  /** Turns started and not yet finished, as the stream told (a turn another client runs counts too). */
  private readonly runningTurns = new Set<string>();

  /** Whether a turn of this session is running now (the session view offers to cancel it). */
  get turnRunning(): boolean {
    return this.runningTurns.size > 0;
  }

  /** Changes whenever the item changes: a row re-renders only when its own revision moved. */
  revision(item: TimelineItem): number {
    return this.revisions.get(item) ?? 0;
  }

  private touch(item: TimelineItem | undefined): void {
    if (item) this.revisions.set(item, this.revision(item) + 1);
  }

  private add(item: TimelineItem): void {
    // Stored messages are loaded again after every turn: a row already shown stays the one row.
    if (this.byKey.has(item.key)) return;
    this.byKey.set(item.key, item);
    this.items.push(item);
  }

  /**
   * A call still shown running when its turn ends was stopped with it (a cancelled turn sends no
   * `tool_call_finished` for the calls it aborts): the row says so instead of spinning forever.
   */
  private endOpenCalls(turnId: string, reason: string): void {
    for (const item of this.items) {
      if (item.kind !== 'tool' || item.turnId !== turnId) continue;
      if (item.state !== 'running' && item.state !== 'waiting') continue;
      item.state = 'failed';
      item.code = reason === 'aborted' ? 'CANCELLED' : 'UNFINISHED';
      item.message = `the turn ended (${reason}) before the call did`;
      this.endedWithTurn.add(item);
      this.touch(item);
    }
  }

  private tool(callId: string): ToolItem | undefined {
    const item = this.byKey.get(`tool:${callId}`);
    return item?.kind === 'tool' ? item : undefined;
  }

  /**
   * Stored messages of turns not seen live (a reload, or turns before the page opened), and of turns the
   * stream joined midway: their rows before the stream went live come from the store, placed before the
   * rows the stream made. A turn seen from its `turn_started` only takes its stored tool outputs.
   */
  loadHistory(messages: readonly SessionMessage[]): void {
    // Where the next row goes: after the last one placed, so each turn's rows keep their stored order.
    let lastUnseen: TimelineItem | undefined;
    const lastOfJoined = new Map<string, TimelineItem>();
    for (const stored of messages) {
      const message = stored.message as Record<string, unknown>;
      const turnId = stored.turnId;
      if (this.liveFromStart.has(turnId)) {
        // The live events made the rows already; the stored tool result only adds the output.
        if (stored.role === 'tool') this.attachOutput(message);
        continue;
      }
      this.historyTurns.add(turnId);
      const joined = this.seenTurns.has(turnId);
      for (const candidate of this.rowsOf(stored, joined)) {
        // A row already shown stays the one row, and the next stored one goes after it.
        let row = this.byKey.get(candidate.key);
        if (!row) {
          row = candidate;
          const last = joined ? lastOfJoined.get(turnId) : lastUnseen;
          const at = last
            ? this.items.lastIndexOf(last) + 1
            : this.firstIndex(joined ? (item) => item.turnId === turnId : (item) => this.isLive(item));
          this.insertAt(row, at);
        }
        if (joined) lastOfJoined.set(turnId, row);
        else lastUnseen = row;
      }
      if (stored.role === 'tool') this.attachOutput(message);
    }
    this.version++;
  }

  /** A row the stream made (or the user's own message typed here): live turns are the newest. */
  private isLive(item: TimelineItem): boolean {
    return item.turnId === '' || this.seenTurns.has(item.turnId);
  }

  private firstIndex(matches: (item: TimelineItem) => boolean): number {
    const index = this.items.findIndex(matches);
    return index < 0 ? this.items.length : index;
  }

  /**
   * The rows one stored message makes. In a turn joined midway, the stored message may already be on
   * screen as a live row: the user's own message (sent from this page) is adopted, and a live answer with
   * the same text gives way to the stored one.
   */
  private rowsOf(stored: SessionMessage, joined: boolean): TimelineItem[] {
    const message = stored.message as Record<string, unknown>;
    const turnId = stored.turnId;
    if (stored.role === 'user') {
      const text = String(message.content ?? '');
      const key = `user:${stored.seq}`;
      const local =
        joined && !this.byKey.has(key)
          ? this.items.find((item) => item.kind === 'user' && item.turnId === '' && item.text === text)
          : undefined;
      if (local) {
        // Known by its stored key from now on, so a later load finds it.
        local.turnId = turnId;
        this.byKey.set(key, local);
        return [local];
      }
      return [{ key, kind: 'user', turnId, text }];
    }
    if (stored.role !== 'assistant') return [];
    const rows: TimelineItem[] = [];
    if (message.content) {
      const text = String(message.content);
      if (joined) this.removeLiveAnswer(turnId, text);
      rows.push({ key: `assistant:${stored.seq}`, kind: 'assistant', turnId, text, streaming: false });
    }
    const calls =
      (message.toolCalls as Array<{ id: string; name: string; arguments: unknown }> | undefined) ?? [];
    for (const call of calls)
      rows.push({
        key: `tool:${call.id}`,
        kind: 'tool',
        turnId,
        callId: call.id,
        tool: call.name,
        params: call.arguments,
        state: 'ok',
      });
    return rows;
  }

  private removeLiveAnswer(turnId: string, text: string): void {
    const index = this.items.findIndex(
      (item) =>
        item.kind === 'assistant' &&
        item.turnId === turnId &&
        item.key.startsWith('assistant:live:') &&
        item.text === text,
    );
    if (index < 0) return;
    this.byKey.delete(this.items[index]!.key);
    this.items.splice(index, 1);
  }

  private insertAt(item: TimelineItem, index: number): void {
    this.byKey.set(item.key, item);
    this.items.splice(index, 0, item);
  }

  private attachOutput(message: Record<string, unknown>): void {
    const item = this.tool(String(message.toolCallId));
    if (!item) return;
    item.output = String(message.content ?? '');
    if (Array.isArray(message.images)) item.images = message.images as ToolItem['images'];
    if (message.isError && item.state === 'ok') item.state = 'failed';
    // A row the turn's end closed missed its live `tool_call_finished` (it came before the stream was
    // live): the stored result says how the call really ended.
    if (this.endedWithTurn.delete(item) && !message.isError) {
      item.state = 'ok';
      delete item.code;
      delete item.message;
    }
    this.touch(item);
  }

  /** The user's own message, shown at once (the events carry only the answer). */
  addUserMessage(text: string): void {
    this.add({ key: `user:local:${this.items.length}`, kind: 'user', turnId: '', text });
    this.version++;
  }

  apply(event: ChatEvent): void {
    const turnId = String(event.turnId ?? '');
    if (turnId) this.seenTurns.add(turnId);
    const streamKey = `assistant:live:${turnId}`;
    switch (event.type) {
      case 'turn_started':
        this.runningTurns.add(turnId);
        if (!this.historyTurns.has(turnId)) this.liveFromStart.add(turnId);
        break;
      case 'skills_selected':
        this.add({
          key: `skills:${turnId}`,
          kind: 'skills',
          turnId,
          skills: (event.skills as Extract<TimelineItem, { kind: 'skills' }>['skills']) ?? [],
          removedTools: (event.removedTools as Array<{ name: string; reason: string }>) ?? [],
        });
        break;
      case 'text_delta': {
        if (this.historyTurns.has(turnId)) break;
        const item = this.byKey.get(streamKey);
        if (item?.kind === 'assistant') {
          item.text += String(event.text ?? '');
          this.touch(item);
        } else
          this.add({
            key: streamKey,
            kind: 'assistant',
            turnId,
            text: String(event.text ?? ''),
            streaming: true,
          });
        break;
      }
      case 'message': {
        const shown = this.items.some(
          (entry) =>
            entry.kind === 'assistant' &&
            entry.turnId === turnId &&
            !entry.key.startsWith('assistant:live') &&
            entry.text === String(event.content ?? ''),
        );
        if (this.historyTurns.has(turnId) && shown) break;
        const item = this.byKey.get(streamKey);
        if (item?.kind === 'assistant') {
          item.text = String(event.content ?? item.text);
          item.streaming = false;
          this.touch(item);
        } else
          this.add({
            key: streamKey,
            kind: 'assistant',
            turnId,
            text: String(event.content ?? ''),
            streaming: false,
          });
        break;
      }
      case 'tool_call_started': {
        // A new model call streams its own text: the next delta starts a new row.
        const streaming = this.byKey.get(streamKey);
        if (streaming?.kind === 'assistant') {
          this.byKey.delete(streamKey);
          streaming.key = `${streamKey}:${this.items.length}`;
          streaming.streaming = false;
          this.byKey.set(streaming.key, streaming);
          this.touch(streaming);
        }
        const callId = String(event.callId);
        const existing = this.tool(callId);
        if (!existing)
          this.add({
            key: `tool:${callId}`,
            kind: 'tool',
            turnId,
            callId,
            tool: String(event.tool),
            params: event.params,
            state: 'running',
          });
        else if (existing.state === 'waiting' && existing.approval?.decision) {
          existing.state = 'running';
          this.touch(existing);
        }
        break;
      }
      case 'approval_requested': {
        // The decision comes before the call starts: the approval may be the first word of a call.
        const callId = String(event.callId);
        let item = this.tool(callId);
        if (!item) {
          item = {
            key: `tool:${callId}`,
            kind: 'tool',
            turnId,
            callId,
            tool: String(event.tool),
            params: event.params,
            state: 'waiting',
          };
          this.add(item);
        }
        item.state = 'waiting';
        item.approval = { id: String(event.approvalId), reason: String(event.reason ?? '') };
        this.touch(item);
        break;
      }
      case 'approval_resolved': {
        const item = this.tool(String(event.callId));
        if (item?.approval) {
          item.approval.decision = String(event.decision);
          if (event.resolvedBy) item.approval.resolvedBy = String(event.resolvedBy);
          if (item.state === 'waiting') item.state = 'running';
          this.touch(item);
        }
        break;
      }
      case 'tool_call_finished': {
        let item = this.tool(String(event.callId));
        if (!item) {
          item = {
            key: `tool:${String(event.callId)}`,
            kind: 'tool',
            turnId,
            callId: String(event.callId),
            tool: String(event.tool),
            params: undefined,
            state: 'running',
          };
          this.add(item);
        }
        item.state = event.ok ? 'ok' : 'failed';
        item.durationMs = Number(event.durationMs);
        if (event.code) item.code = String(event.code);
        if (event.message) item.message = String(event.message);
        if (event.policy) item.policy = event.policy as ToolItem['policy'];
        this.touch(item);
        break;
      }
      case 'error':
        this.add({
          key: `error:${turnId}:${this.items.length}`,
          kind: 'note',
          turnId,
          tone: 'error',
          text: `${String(event.code)}: ${String(event.message)}`,
        });
        break;
      case 'turn_finished':
        this.runningTurns.delete(turnId);
        this.endOpenCalls(turnId, String(event.reason));
        this.add({
          key: `turn:${turnId}`,
          kind: 'note',
          turnId,
          tone: 'info',
          text: `turn finished: ${String(event.reason)} after ${String(event.iterations)} model call(s)`,
        });
        break;
      case 'command_result':
        this.add({
          key: `command:${turnId}:${this.items.length}`,
          kind: 'note',
          turnId,
          tone: 'info',
          text: `/${String(event.command)}: ${JSON.stringify(event.result)}`,
        });
        break;
      default:
        return;
    }
    this.version++;
  }
}
