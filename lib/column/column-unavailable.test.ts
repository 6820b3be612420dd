import { describe, it, expect } from 'vitest';
import { codeOf, exposedMessage } from '../errors.js';
import { columnUnavailable, engineLimitOf } from './column.js';

// The engines' own error texts ("Code: N. DB::Exception: ... (NAME)"), as chDB throws them and a server answers them.
const engineError = (code: number, text: string) => Object.assign(new Error(`Code: ${code}. DB::Exception: ${text}. (X) (version 24.1.1.1)`), { code: String(code) });

describe('columnUnavailable', () => {
  it('names the engine in a 503 when it cannot take work (full disk, no memory from the system, too many queries)', () => {
    const full = columnUnavailable(engineError(243, 'Cannot reserve 1.00 MiB, not enough space'), 'chdb');
    expect(full && codeOf(full)).toBe('SERVICE_UNAVAILABLE');
    expect(full?.message).toBe('the embedded column store (chDB) is unavailable: its disk is full; retry later');
    expect(columnUnavailable(engineError(202, 'Too many simultaneous queries'), 'clickhouse')?.message).toBe(
      'the column store (ClickHouse server) is unavailable: too many queries run at once; retry later',
    );
    expect(columnUnavailable(engineError(173, 'Cannot allocate memory'), 'chdb')?.message).toMatch(/refused it memory/);
  });

  it('leaves the statement’s own failures alone: a syntax error, a limit the statement exceeded, a cancelled query', () => {
    expect(columnUnavailable(engineError(62, 'Syntax error'), 'chdb')).toBeUndefined();
    const memoryLimit = engineError(241, 'Memory limit (for query) exceeded');
    expect(columnUnavailable(memoryLimit, 'clickhouse')).toBeUndefined();
    expect(engineLimitOf(memoryLimit)).toBe('memory');
    expect(columnUnavailable(engineError(394, 'Query was cancelled'), 'chdb')).toBeUndefined();
  });

  it('tells a refused connection from a lost one, and keeps the original below the message the client gets', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('query DataStore.rowCounts failed', { cause: refused });
    const lost = columnUnavailable(wrapped, 'clickhouse');
    expect(lost?.message).toBe('the column store (ClickHouse server) cannot be reached; retry later');
    expect(exposedMessage(new Error('query failed', { cause: lost }))).toBe(lost?.message);
    expect((lost as Error & { cause?: unknown }).cause).toBe(wrapped);
    expect(columnUnavailable(new Error('socket hang up'), 'clickhouse')?.message).toBe('the column store (ClickHouse server) connection was lost; retry');
    // chDB has no connection: a socket error text in its message is the statement's (a URL table function).
    expect(columnUnavailable(new Error('socket hang up'), 'chdb')).toBeUndefined();
  });
});
