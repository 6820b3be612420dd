import { BadInput } from '../errors.js';

/**
 * What a worker task answers when the input may be at fault: an error's class does not survive the trip between
 * threads, so bad input comes back as a value and the caller throws it as BadInput again. Anything else is a fault
 * and is thrown by the task.
 */
export type TaskOutcome<T> = { ok: T } | { problem: { message: string } };

/** On the worker: runs `work`, turning BadInput into a problem value. */
export function badInputAsValue<T>(work: () => T): TaskOutcome<T> {
  try {
    return { ok: work() };
  } catch (e) {
    if ((e as { extensions?: { code?: string } }).extensions?.code === 'BAD_USER_INPUT') return { problem: { message: (e as Error).message } };
    throw e;
  }
}

/** On the caller: the value, or the problem thrown as BadInput. */
export function unwrapOutcome<T>(outcome: TaskOutcome<T>): T {
  if ('ok' in outcome) return outcome.ok;
  throw new BadInput(outcome.problem.message);
}
