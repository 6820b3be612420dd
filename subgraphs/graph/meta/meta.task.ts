import { badInputAsValue, type TaskOutcome } from '../../../lib/workers/outcome.js';
import { metaAnalyse } from './meta-analysis.js';
import { forestPlot, type ForestPlotOptions } from './forest-plot.js';
import type { MetaInput, MetaResult } from './meta.model.js';

/*
 * The meta-analysis' side of the worker pool (lib/workers/pool.ts): iterative estimators and the plot run off the
 * request thread. Bad input comes back as a message, since an error's class does not survive the trip between
 * threads.
 */

export type MetaTaskResult = TaskOutcome<{ result: MetaResult; svg: string | null }>;

export async function analyse(input: { meta: MetaInput; plot: ForestPlotOptions | null }): Promise<MetaTaskResult> {
  return badInputAsValue(() => {
    const result = metaAnalyse(input.meta);
    return { result, svg: input.plot ? forestPlot(result, input.plot) : null };
  });
}
