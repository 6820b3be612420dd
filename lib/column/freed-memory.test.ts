import { describe, it, expect } from 'vitest';
import { FreedMemory } from './freed-memory.js';

const MiB = 1024 * 1024;

describe(FreedMemory.name, () => {
  it('asks for a purge only while the process holds more than the threshold above the least it held', () => {
    let rss = 800 * MiB;
    const freed = new FreedMemory(256 * MiB, () => rss);
    expect(freed.shouldPurge()).toBe(false);
    rss = 1000 * MiB;
    expect(freed.shouldPurge()).toBe(false);
    rss = 5000 * MiB;
    expect(freed.shouldPurge()).toBe(true);
    rss = 700 * MiB;
    expect(freed.shouldPurge()).toBe(false);
    rss = 900 * MiB;
    expect(freed.shouldPurge()).toBe(false);
    rss = 960 * MiB;
    expect(freed.shouldPurge()).toBe(true);
  });
});
