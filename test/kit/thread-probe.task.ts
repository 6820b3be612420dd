import os from 'node:os';

/** A worker-pool task that answers the priority its thread runs at (lib/workers/thread-priority.ts). */
export async function threadPriority(): Promise<number> {
  return os.getPriority();
}
