import { createHash } from 'node:crypto';
import { LruCache } from '../lru.js';

/**
 * Sent by each new connection before it is used. A named statement is still planned for each execution's own
 * values, as an unnamed one is, instead of switching to a generic plan, which cannot drop `$1 IS NULL OR ...`
 * filters for the values given. And the connection starts with no prepared statements, as node-postgres assumes:
 * PGlite is one session whatever the connection, so the statements of a connection that went away (a lost or
 * aborted connection is dropped by the pool) would otherwise still be there. JIT compilation is off: the statements
 * here are short, and the planner, which takes every JSON list parameter for 100 rows, overestimates batch statements
 * enough to compile them, which cost PostgreSQL about a second per suggestion statement that runs in 10 ms.
 */
export const FRESH_SESSION = 'DEALLOCATE ALL; SET plan_cache_mode = force_custom_plan; SET jit = off';

/** Statement texts that get a name, per pool; later new texts run unnamed, as every statement used to. */
export const NAMED_STATEMENTS_MAX = 1000;
/** Texts seen once, remembered until they come again or make way for newer ones. */
const SEEN_ONCE_MAX = 1000;

/**
 * Names for the parameterised statements a pool sends again and again, so that each connection has the server parse
 * them once (node-postgres prepares a named statement on its first use on a connection, and afterwards only binds
 * and executes it). On the embedded engine, parsing a term read costs as much as planning and running it.
 *
 * A text is named from its second use, so one-off statements leave nothing behind on the server, and the number of
 * named texts is bounded, so texts built per call (lists of varying length) cannot fill the server's memory. The
 * name is derived from the text, so every connection of the pool agrees on it. Statements without parameters keep
 * the simple protocol (which allows several commands in one text) and are never named.
 */
export class StatementNames {
  private readonly named = new Map<string, string>();
  private readonly seenOnce = new LruCache<string, true>(SEEN_ONCE_MAX);

  constructor(private readonly max = NAMED_STATEMENTS_MAX) {}

  /** The name to send `text` under, or undefined to send it unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.named.get(text);
    if (known) return known;
    if (this.named.size >= this.max) return undefined;
    if (!this.seenOnce.get(text)) {
      this.seenOnce.set(text, true);
      return undefined;
    }
    this.seenOnce.delete(text);
    const name = `s${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    this.named.set(text, name);
    return name;
  }

  /**
   * The arguments of a node-postgres `query(config, values, callback)` call, with the statement named when it
   * should be: a config object with a text, no name of its own, and parameters.
   */
  name(args: unknown[]): unknown[] {
    const config = args[0] as { text?: unknown; name?: unknown; values?: unknown[] } | null | undefined;
    if (!config || typeof config !== 'object' || typeof config.text !== 'string' || config.name) return args;
    const values = Array.isArray(args[1]) ? args[1] : config.values;
    if (!values?.length) return args;
    const name = this.nameFor(config.text);
    return name ? [{ ...config, name }, ...args.slice(1)] : args;
  }
}
