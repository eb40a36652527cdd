import { describe, expect, it } from '@jest/globals';
import { CallAbort } from './call-abort.js';
import { listenForCallAbort } from './call-abort-listener.js';

describe('listenForCallAbort', () => {
  it("uses the context's onAbort when it has one, without touching its signal", () => {
    const abort = new CallAbort();
    const context = {
      get signal(): AbortSignal {
        throw new Error('an AbortSignal was made');
      },
      onAbort: (listener: (reason: unknown) => void) => abort.onAbort(listener),
    };
    const told: unknown[] = [];
    listenForCallAbort(context, (reason) => told.push(reason));
    const removed = listenForCallAbort(context, (reason) => told.push(['removed', reason]));
    removed();
    abort.abort('gone');
    expect(told).toEqual(['gone']);
  });

  it('falls back to the signal: told once with its reason, at once when already aborted, not after removal', () => {
    const controller = new AbortController();
    const told: unknown[] = [];
    listenForCallAbort({ signal: controller.signal }, (reason) => told.push(reason));
    listenForCallAbort({ signal: controller.signal }, (reason) => told.push(['removed', reason]))();
    controller.abort('late');
    controller.abort('again');
    expect(told).toEqual(['late']);
    listenForCallAbort({ signal: AbortSignal.abort('early') }, (reason) => told.push(reason));
    expect(told).toEqual(['late', 'early']);
  });
});
