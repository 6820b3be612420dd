import { nearestNames, type NearestNames } from './trigram-candidates.js';

/**
 * Worker-thread entry point (lib/workers/pool.ts): narrowing thousands of names down to each value's nearest is CPU
 * work that must not hold up the request thread.
 */
export async function nearestNamesTask(input: { names: string[]; values: string[]; count: number }): Promise<NearestNames> {
  return nearestNames(input.names, input.values, input.count);
}
