import 'reflect-metadata';
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { closeLeftoverApps } from './app.js';
import { engineEnvFromProcess, testCostLog } from './settings.js';

// Registered before the file's own hooks, so it runs after them: whatever the file did not close is closed here.
afterAll(closeLeftoverApps);

const costLog = testCostLog();
/** Which of the full suite's runs this process belongs to, for the cost log. */
function engineSet(): 'cluster' | 'server' | 'embedded' {
  const env = engineEnvFromProcess();
  return env.CLICKHOUSE_CLUSTER ? 'cluster' : env.DATABASE_URL ? 'server' : 'embedded';
}

if (costLog) {
  // Files take turns in a worker process, so the process's CPU time between a file's first and last hook is the
  // file's (spawned services, Chromium and the database servers are not counted).
  let cpu = process.cpuUsage();
  let wall = performance.now();
  let file = 'unknown';
  beforeAll((suite) => {
    file = 'filepath' in suite && typeof suite.filepath === 'string' ? suite.filepath : suite.name;
    cpu = process.cpuUsage();
    wall = performance.now();
  });
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    appendFileSync(costLog, JSON.stringify({ file, cpuMs: Math.round((used.user + used.system) / 1000), wallMs: Math.round(performance.now() - wall), engines: engineSet() }) + '\n');
  });
}
