import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, SUBGRAPH_NAMES, type Config, type SubgraphName } from '../lib/config.js';
import { secureDataDir } from '../lib/data-dir.js';
import { SUBGRAPHS } from './subgraphs.js';

/**
 * What start-up does before it opens anything: checks the settings of the subgraphs served in this process (keys,
 * the first-start SuperUser) and makes DATA_DIR private, reporting every problem at once as a ConfigError.
 */
export async function prepareStart(
  config: Config,
  log: FastifyBaseLogger,
  names: readonly SubgraphName[] = SUBGRAPH_NAMES.filter((name) => !config.subgraphs.urls[name]),
): Promise<void> {
  const problems = (await Promise.all(names.map((name) => SUBGRAPHS[name].checkConfig?.(config) ?? []))).flat();
  const warning = await secureDataDir(config.dataDir).catch((e: unknown) => {
    if (!(e instanceof ConfigError)) throw e;
    problems.push(...e.problems);
  });
  if (problems.length) throw new ConfigError(problems);
  if (warning) log.warn({ dataDir: config.dataDir }, warning);
}
