// How a job's state is coloured wherever it is shown as a badge (queue, Create results, Jobs).
import type { JobInfo } from '@contract/ipc/jobs.ts';

export const JOB_STATE_TONE = {
  submitting: 'neutral',
  queued: 'neutral',
  running: 'accent',
  succeeded: 'success',
  failed: 'danger',
  unknown: 'warning',
} as const satisfies Record<JobInfo['state'], string>;
