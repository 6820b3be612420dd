import { Redis } from 'ioredis';
import { testRedisUrl } from './settings.js';

/**
 * The Redis the tests of shared limits run against, after checking that it answers. The limits themselves would
 * quietly fall back to counting in memory, which would make those tests fail for a reason they do not name.
 */
export async function requireTestRedis(): Promise<string> {
  const url = testRedisUrl();
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    throw new Error(`these tests need a Redis at ${url}: start one (redis-server --port 6379) or set TEST_REDIS_URL (${(e as Error).message})`);
  } finally {
    client.disconnect();
  }
  return url;
}
