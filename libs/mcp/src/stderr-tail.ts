import type { Readable } from 'node:stream';

/** Default number of stderr lines kept per server. */
export const DEFAULT_STDERR_TAIL_LINES = 50;
const MAX_LINE_LENGTH = 2000;

/** Keeps the last N lines written to a stream (a crashed server's last words). */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly maxLines: number = DEFAULT_STDERR_TAIL_LINES) {}

  /** Starts collecting from `stream`; earlier lines are kept so a restart shows history across runs. */
  follow(stream: Readable): void {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.write(chunk));
    stream.on('end', () => this.flush());
    stream.on('error', () => this.flush());
  }

  write(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? '').slice(0, MAX_LINE_LENGTH);
    for (const line of parts) this.push(line);
  }

  /** The kept lines, oldest first, including an unterminated last line. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }

  private flush(): void {
    if (this.partial) this.push(this.partial);
    this.partial = '';
  }

  private push(line: string): void {
    if (line.length === 0) return;
    this.lines.push(line.slice(0, MAX_LINE_LENGTH));
    if (this.lines.length > this.maxLines) this.lines.splice(0, this.lines.length - this.maxLines);
  }
}
