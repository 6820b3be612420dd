import { describe, it, expect } from 'vitest';
import { RateLimited } from './errors.js';
import { PerUserSlots } from './per-user-slots.js';

describe('PerUserSlots', () => {
  it("refuses a user's work past the limit at once with 429, leaves other users alone, and frees the slot however the work ends", async () => {
    const slots = new PerUserSlots(2, (n) => `you are running ${n} already`);
    const gates: Array<() => void> = [];
    const held = () => new Promise<void>((resolve) => gates.push(resolve));
    const a1 = slots.run('a', held);
    const a2 = slots.run('a', held);
    const refused = await slots.run('a', async () => 'ran').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).message).toBe('you are running 2 already');
    expect(await slots.run('b', async () => 'b ran')).toBe('b ran');
    gates.forEach((open) => open());
    await Promise.all([a1, a2]);
    await expect(slots.run('a', async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(await slots.run('a', async () => 'again')).toBe('again');
    expect(slots.load().size).toBe(0);
  });
});
