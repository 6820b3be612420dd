import os from 'node:os';

/** A worker-pool task that answers the priority its thread runs at (lib/workers/thread-priority.ts). */
export async function threadPriority(): Promise<number> {
  return os.getPriority();
}

/** Holds its thread until the test sets `flag[0]` to 1 (and notifies): a task that ends when the test says, not after a time. */
export async function holdUntilReleased(input: { flag: Int32Array }): Promise<true> {
  while (Atomics.load(input.flag, 0) === 0) Atomics.wait(input.flag, 0, 0, 1000);
  return true;
}
