import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, type Config, type SubgraphName } from '../lib/config.js';
import { secureDataDir } from '../lib/data-dir.js';
import { SUBGRAPHS } from './subgraphs.js';
import { enabledSubgraphs } from './compose.js';

/**
 * What start-up does before it opens anything: checks the settings of the subgraphs served in this process (keys,
 * the first-start SuperUser) and makes DATA_DIR private, reporting every problem at once as a ConfigError. A
 * subgraph SUBGRAPHS_DISABLED names is not served, so its settings are not checked.
 */
export async function prepareStart(
  config: Config,
  log: FastifyBaseLogger,
  names: readonly SubgraphName[] = enabledSubgraphs(config).filter((name) => !config.subgraphs.urls[name]),
): Promise<void> {
  const problems = (await Promise.all(names.map((name) => SUBGRAPHS[name].checkConfig(config)))).flat();
  const warning = await secureDataDir(config.dataDir).catch((e: unknown) => {
    if (!(e instanceof ConfigError)) throw e;
    problems.push(...e.problems);
  });
  if (problems.length) throw new ConfigError(problems);
  if (warning) log.warn({ dataDir: config.dataDir }, warning);
}
