import { badInputAsValue, type TaskOutcome } from '../../../lib/workers/outcome.js';
import { parseSwcTree } from '../../../lib/morphology/swc.js';
import { morphometrics, type MorphometricsOptions, type NeuronMorphometrics } from './morphometrics.js';

/*
 * The morphometrics' side of the worker pool (lib/workers/pool.ts): parsing an SWC file and walking its tree are
 * CPU work that must not hold up the request thread. A file that does not parse comes back as a message, since an
 * error's class does not survive the trip between threads.
 */

export interface MorphometricsTaskInput {
  files: Array<{ filename: string; bytes: Uint8Array }>;
  options: MorphometricsOptions;
}

export type MorphometricsTaskResult = Array<TaskOutcome<NeuronMorphometrics>>;

export async function morphometricsOfFiles(input: MorphometricsTaskInput): Promise<MorphometricsTaskResult> {
  return input.files.map(({ filename, bytes }) => badInputAsValue(() => morphometrics(parseSwcTree(bytes, filename), input.options)));
}
