import type { ChannelEvent, RelationalStore } from '../../lib/db/relational.js';
import { eventually } from './eventually.js';

/**
 * Subscribes `listener` to `channel` (RelationalStore.subscribe) and resolves once every later notice is sure to
 * reach it; returns the unsubscribe.
 */
export async function listenUntilReady(store: RelationalStore, channel: string, listener: (event: ChannelEvent) => void): Promise<() => void> {
  let listening = false;
  const unsubscribe = store.subscribe(channel, (event) => {
    listener(event);
    listening = event === 'listening' || (listening && event === 'notice');
  });
  try {
    await eventually(() => listening, { what: `listening on ${channel}` });
  } catch (e) {
    unsubscribe();
    throw e;
  }
  return unsubscribe;
}
