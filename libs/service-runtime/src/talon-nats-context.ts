import { BaseRpcContext } from '@nestjs/microservices';

type ContextArgs = [
  subject: string,
  callId: string | undefined,
  traceparent: string | undefined,
  deadline: number | undefined,
  token: string | undefined,
  acknowledge: (subject: string, instanceId: string) => void,
];

/** What a handler knows about the message beyond its payload. */
export class TalonNatsContext extends BaseRpcContext<ContextArgs> {
  get subject(): string {
    return this.args[0];
  }
  get callId(): string | undefined {
    return this.args[1];
  }
  get traceparent(): string | undefined {
    return this.args[2];
  }
  /** Epoch ms after which the caller has given up. */
  get deadline(): number | undefined {
    return this.args[3];
  }
  /** The caller's API token (`talon-token` header), on the public API only. */
  get token(): string | undefined {
    return this.args[4];
  }
  /**
   * Publishes an acknowledgement (a message with only the `talon-ack` header naming `instanceId`) on the
   * subject a tool call names, before its result (which goes to the reply subject).
   */
  get acknowledge(): (subject: string, instanceId: string) => void {
    return this.args[5];
  }
}
