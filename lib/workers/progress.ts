import type { MessagePort } from 'node:worker_threads';

/**
 * A task's side of progress reporting (see `runTask`'s `onProgress`): imports nothing else, so task modules can
 * use it inside worker threads. Reports are throttled to one per `everyMs`; the last one always goes out.
 */
export function progressReporter(port: MessagePort | undefined, everyMs = 200): (value: unknown, force?: boolean) => void {
  if (!port) return () => undefined;
  let last = 0;
  return (value, force = false) => {
    const now = Date.now();
    if (!force && now - last < everyMs) return;
    last = now;
    port.postMessage(value);
  };
}
