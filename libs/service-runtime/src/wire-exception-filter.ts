import { Catch, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * The one place errors leave a handler: rethrown untouched so the transport can map them to the wire
 * envelope with their stable code (Nest's default filter would replace them with a generic message).
 */
@Catch()
export class WireExceptionFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    return throwError(() => exception);
  }
}
