import { describe, it, expect } from 'vitest';
import { RequestAbort, abortError, currentRequestScope, runInRequestScope, throwIfRequestAborted } from './request-scope.js';

describe(RequestAbort.name, () => {
  it('gives one signal, aborted with the reason when the request is', () => {
    const abort = new RequestAbort();
    const signal = abort.signal;
    expect(abort.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const seen: unknown[] = [];
    signal.addEventListener('abort', () => seen.push(signal.reason));
    const reason = new Error('request timeout');
    abort.abort(reason);
    abort.abort(new Error('client closed the connection'));
    expect(abort.aborted).toBe(true);
    expect(seen).toEqual([reason]);
  });

  it('remembers an abort that came before anyone asked for the signal', () => {
    const abort = new RequestAbort();
    abort.abort(new Error('client closed the connection'));
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abortError(abort.signal).message).toBe('the work behind this request was stopped: client closed the connection');
  });

  it('reaches the work of the request through its scope', () => {
    const abort = new RequestAbort();
    const scope = {
      requestId: 'r1',
      get signal() {
        return abort.signal;
      },
    };
    runInRequestScope(scope, () => {
      expect(() => throwIfRequestAborted()).not.toThrow();
      abort.abort(new Error('request timeout'));
      expect(currentRequestScope()?.signal.aborted).toBe(true);
      expect(() => throwIfRequestAborted()).toThrow(/request timeout/);
    });
  });
});
