import type { Config } from '../config.js';
import type { Limits, LimitsLog } from './limits.js';
import { MemoryLimits } from './memory.js';

/**
 * Opens the configured backend: Redis when REDIS_URL is set (falling back to this process's counters while it
 * does not answer; see RedisLimits), otherwise in-process counters.
 */
export async function openLimits(config: Config['limits'], log: LimitsLog): Promise<Limits> {
  if (!config.redisUrl) return new MemoryLimits();
  // Loaded only when configured: the Redis client is a sizeable module graph that most installations never use.
  const { RedisLimits } = await import('./redis.js');
  const limits = new RedisLimits(config.redisUrl, config.redisKeyPrefix, log);
  await limits.connected();
  return limits;
}
