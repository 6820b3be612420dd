import { describe, it, expect, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { packagePath } from '../../../lib/package-root.js';
import { closeWorkerPool, runTask } from '../../../lib/workers/pool.js';
import type { ParsedConnections, ParsedNeurons } from './connectome-csv.js';
import { parseConnectionsOffThread, parseNeuronsOffThread, parseSwcOffThread } from './ingest.js';
import type { IngestTaskResult, ParsedMorphology } from './ingest.task.js';

const TASKS = new URL('./ingest.task.ts', import.meta.url);
const dataset = (file: string) => readFileSync(packagePath('seed', 'connectomes', 'celegans_varshney_2011', file));

afterAll(() => closeWorkerPool());

describe('ingest tasks on the worker pool', () => {
  it('parse a neuron and a connection table on a worker thread', async () => {
    const neurons = await runTask<IngestTaskResult<ParsedNeurons>>(TASKS, 'parseNeuronsTask', { text: dataset('neurons.csv'), filename: 'neurons.csv', datasetId: 'd', version: 1 });
    if (!('ok' in neurons)) throw new Error(neurons.problem.message);
    expect(neurons.ok.stats).toEqual({ cells: 280, neurons: 280, withNeurotransmitter: 226 });
    const connections = await runTask<IngestTaskResult<ParsedConnections>>(TASKS, 'parseConnectionsTask', {
      text: dataset('connections.csv').toString('utf8'),
      filename: 'connections.csv',
      datasetId: 'd',
      version: 1,
      neuronIds: neurons.ok.neuronIds,
    });
    if (!('ok' in connections)) throw new Error(connections.problem.message);
    expect(connections.ok.stats.electrical).toEqual({ rows: 517, totalWeight: 890, selfLoops: 3 });
    expect(connections.ok.chunks.join('').split('\n')).toHaveLength(2711 + 1);
  });

  it('return a problem of the file as a value', async () => {
    const result = await runTask<IngestTaskResult<ParsedConnections>>(TASKS, 'parseConnectionsTask', {
      text: 'pre,post\nAVAL,AVAX\n',
      filename: 'connections.csv',
      datasetId: 'd',
      version: 1,
      neuronIds: ['AVAL'],
    });
    expect(result).toEqual({ problem: { message: 'connections.csv line 2: post "AVAX" is not a neuron of this dataset (upload it in neurons.csv first)' } });
  });

  it('summarise an SWC file with its row for the column store', async () => {
    const text = readFileSync(packagePath('seed', 'morphology', 'synthetic', 'NeuroM_Neuron.swc'));
    const result = await runTask<IngestTaskResult<ParsedMorphology>>(TASKS, 'parseSwcTask', {
      text,
      filename: 'NeuroM_Neuron.swc',
      datasetId: 'd',
      version: 2,
      neuron: 'synthetic',
      objectKey: 'datasets/d/NeuroM_Neuron.swc',
      sha256: 'bd257f14efce7553f70ab3771605df45cbb569915ef184bbee4197f1ee90620c',
    });
    if (!('ok' in result)) throw new Error(result.problem.message);
    expect(result.ok.summary).toMatchObject({ nPoints: 847, nStems: 4, nBifurcations: 40, nTips: 44 });
    expect(result.ok.row).toMatchObject({ datasetId: 'd', version: 2, neuron: 'synthetic', file: 'NeuroM_Neuron.swc', nPoints: 847 });
    expect(result.ok.tsv.startsWith('d\t2\tsynthetic\tNeuroM_Neuron.swc\tdatasets/d/NeuroM_Neuron.swc\tbd257f14')).toBe(true);
  });

  it('turn a problem back into BadInput for services', async () => {
    await expect(parseSwcOffThread({ text: '1 1 0 0 0 1 5\n', filename: 'x.swc', datasetId: 'd', version: 1, neuron: 'n', objectKey: 'k', sha256: 's' })).rejects.toMatchObject({
      message: 'x.swc: 2 problems, nothing was ingested: x.swc: has no root sample (one whose parent is -1); x.swc line 1: parent 5 of sample 1 is not a sample of this file',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const neurons = await parseNeuronsOffThread({ text: 'neuron_id\nA\nB\n', filename: 'n.csv', datasetId: 'd', version: 1 });
    const connections = await parseConnectionsOffThread({ text: 'pre,post\nA,B\n', filename: 'c.csv', datasetId: 'd', version: 1, neuronIds: neurons.neuronIds });
    expect(connections.rows).toBe(1);
  });

  it('stop when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(parseNeuronsOffThread({ text: 'neuron_id\nA\n', filename: 'n.csv', datasetId: 'd', version: 1 }, controller.signal)).rejects.toThrow();
  });
});
