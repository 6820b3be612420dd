import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString } from 'pino';

type Parent = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger, made the first time something is logged through it. pino's `child` serialises the bindings
 * (the request id) and runs them through the redaction paths when it is called, a few percent of a small request's
 * time; most requests log nothing below the per-request line, and at LOG_LEVEL warn or quieter not even that.
 * What is written is the same: the first call makes the same child, with the same bindings and options.
 */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: Parent,
    private readonly own: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.own, this.options));
  }

  isLevelEnabled(level: string): boolean {
    // A route's own level (Fastify's logLevel route option) is the child's: only the child can tell.
    if (this.#child || this.options.level !== undefined) return (this.made as Parent).isLevelEnabled(level);
    return this.parent.isLevelEnabled(level);
  }

  get level(): LevelWithSilentOrString {
    return this.#child ? this.#child.level : (this.options.level ?? this.parent.level);
  }

  set level(level: LevelWithSilentOrString) {
    this.made.level = level;
  }

  bindings(): Bindings {
    return (this.made as unknown as { bindings(): Bindings }).bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }

  // Methods, not arrow fields: a request's logger costs one object.
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.made[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is a RequestLogger. */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = function (logger, bindings, options) {
  return new RequestLogger(logger as Parent, bindings, options) as unknown as FastifyBaseLogger;
};
