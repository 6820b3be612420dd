/** Consecutive slices of at most `size` items: the unit of work of a bounded statement or task. */
export function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}
