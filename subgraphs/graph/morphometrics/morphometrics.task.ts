import { badInputAsValue, type TaskOutcome } from '../../../lib/workers/outcome.js';
import { BadInput } from '../../../lib/errors.js';
import { parseSwcTree, SWC_RANGES } from '../../../domain/morphology/swc.js';
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
  return input.files.map(({ filename, bytes }) => badInputAsValue(() => finiteOrRefused(morphometrics(parseSwcTree(bytes, filename), input.options), filename)));
}

/**
 * The parser's ranges keep every measure finite; this holds that for files stored before they existed, and for any
 * overflow they did not foresee. A measure that is not a finite number cannot be answered as JSON or a GraphQL
 * Float: the file is reported as failed, naming the measure, instead of failing the whole request.
 */
export function finiteOrRefused(measures: NeuronMorphometrics, filename: string): NeuronMorphometrics {
  const path = nonFinitePath(measures, '');
  if (path !== null) {
    throw new BadInput(
      `${filename}: ${path} is not a finite number; coordinates must lie within ±${SWC_RANGES.coordinate.toExponential()} and radii within 0 and ${SWC_RANGES.radius.toExponential()}`,
    );
  }
  return measures;
}

/** Where the first number that is NaN or infinite sits in `value` (`sholl.radii[3]`), or null. */
function nonFinitePath(value: unknown, path: string): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nonFinitePath(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const found = nonFinitePath(v, path ? `${path}.${key}` : key);
      if (found !== null) return found;
    }
  }
  return null;
}
