import { randomFillSync } from 'node:crypto';
import { v7, validate, version } from 'uuid';

/**
 * Random bytes drawn 4 KiB at a time: every request gets an id, and asking the system for 16 bytes per id cost
 * more than building the id itself.
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function random16(): Uint8Array {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + 16);
  used += 16;
  return bytes;
}

/**
 * The time and counter of the last id, kept as the uuid package keeps them for its own v7 (which draws 16 bytes per
 * call): ids made within the same millisecond still sort in the order they were made.
 */
const last = { msecs: -Infinity, seq: 0 };

/** A fresh UUID v7: time-ordered, so ids sort by creation and index well. */
export function newId(): string {
  const random = random16();
  const now = Date.now();
  if (now > last.msecs) {
    // A fresh millisecond starts its counter at a random 31-bit value, as uuid's v7 does.
    last.seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
    last.msecs = now;
  } else {
    last.seq = (last.seq + 1) | 0;
    if (last.seq === 0) last.msecs++;
  }
  return v7({ random, msecs: last.msecs, seq: last.seq });
}

export const isUuid = (s: unknown): s is string => typeof s === 'string' && validate(s);
export const isUuidV7 = (s: unknown): s is string => isUuid(s) && version(s) === 7;
