import { unwrapOutcome } from '../../../lib/workers/outcome.js';
import { runTask } from '../../../lib/workers/pool.js';
import type { ParsedConnections, ParsedNeurons } from './connectome-csv.js';
import type { ConnectionsTaskInput, IngestTaskResult, NeuronsTaskInput, ParsedMorphology, SwcTaskInput } from './ingest.task.js';

// Named by URL, not imported: the task module runs on worker threads.
const INGEST_TASKS = new URL('./ingest.task.ts', import.meta.url);

async function offThread<T>(name: 'parseNeuronsTask' | 'parseConnectionsTask' | 'parseSwcTask', input: unknown, signal?: AbortSignal): Promise<T> {
  return unwrapOutcome(await runTask<IngestTaskResult<T>>(INGEST_TASKS, name, input, { signal }));
}

/**
 * The ingest tasks run on the worker pool, for services: each resolves with the parsed file or throws BadInput
 * naming the file and lines at fault. The request's abort signal (or `signal`) stops the task.
 */
export const parseNeuronsOffThread = (input: NeuronsTaskInput, signal?: AbortSignal) => offThread<ParsedNeurons>('parseNeuronsTask', input, signal);
export const parseConnectionsOffThread = (input: ConnectionsTaskInput, signal?: AbortSignal) => offThread<ParsedConnections>('parseConnectionsTask', input, signal);
export const parseSwcOffThread = (input: SwcTaskInput, signal?: AbortSignal) => offThread<ParsedMorphology>('parseSwcTask', input, signal);
