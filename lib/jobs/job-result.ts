import type { JobRecord } from './job.model.js';

/** The media type of every job result: an Apache Arrow IPC stream. */
export { ARROW_STREAM_MEDIA_TYPE } from '../arrow-ipc.js';

/** Each attempt writes its own object: a stalled earlier attempt that is discarded never deletes the live result. */
export const resultKey = (job: Pick<JobRecord, 'id' | 'attempts'>, ext: 'arrow') => `jobs/${job.id}/attempt-${job.attempts}.${ext}`;
