import { v7, validate, version } from 'uuid';

/** A fresh UUID v7: time-ordered, so ids sort by creation and index well. */
export const newId = (): string => v7();

export const isUuid = (s: unknown): s is string => typeof s === 'string' && validate(s);
export const isUuidV7 = (s: unknown): s is string => isUuid(s) && version(s) === 7;
