/**
 * The options of a root Query field that looks one object up by id or slug. It is nullable so that a missing object
 * (its NOT_FOUND error beside the null, at its errors[].path) nulls only its own field, not the whole answer with
 * every field beside it. Its REST route still answers the error's status (404 `{"error": ...}`), so a REST 200 body
 * is never null.
 */
export const rootLookup = (description?: string) => ({ nullable: true as const, ...(description === undefined ? {} : { description }) });
