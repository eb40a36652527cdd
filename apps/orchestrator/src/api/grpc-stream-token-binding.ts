import { Observable } from 'rxjs';
import { streamRefusalMessage, watchStreamAuthorization } from '@talon/auth';
import { TalonError } from '@talon/errors';
import { grpcErrorOf } from './grpc-status.js';

/**
 * Keeps a gRPC server stream bound to its token, as the SSE streams are: while `source` runs, the token
 * is verified again every second; once it is refused (expired, revoked) the stream fails with the gRPC
 * status UNAUTHENTICATED (Nest hands the error to grpc-js, which ends the call with it) and `source` is
 * unsubscribed, which for a chat turn is what a client hanging up does: the turn is cancelled.
 */
export function boundToToken<T>(source: Observable<T>, check: () => Promise<unknown>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const subscription = source.subscribe(subscriber);
    const stop = watchStreamAuthorization({
      check,
      onRefused: (error) =>
        subscriber.error(grpcErrorOf(new TalonError(error.code, streamRefusalMessage(error)))),
    });
    return () => {
      stop();
      subscription.unsubscribe();
    };
  });
}
