import { useCallback, useEffect, useState } from 'react';
import { call } from './talon-api.js';
import { ApiError } from './api-error.js';

export interface CallState<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload(): void;
}

/** Calls a method when mounted and whenever `key` changes; `everyMs` polls (lists that change under us). */
export function useCall<T>(method: string, payload: unknown = {}, everyMs?: number): CallState<T> {
  const key = JSON.stringify(payload);
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    call<T>(method, JSON.parse(key)).then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) =>
        live &&
        setState((previous) => ({
          data: previous.data,
          error: ApiError.isInstance(error) ? error : new ApiError('CONSOLE', String(error), 0),
          loading: false,
        })),
    );
    return () => {
      live = false;
    };
  }, [method, key, tick]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [everyMs, reload]);
  return { ...state, reload };
}
