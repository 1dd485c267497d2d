import { describe, expect, it } from 'vitest';
import { FAILURE_STATUSES, MAX_FAILURES, MAX_FAILURES_PER_WORKER, countFailure, hasRetryLeft, isFailureStatus, isOutOfRetries, isRetryable } from './index.js';

describe('retry budget (docs/convergence.md "Retry budget")', () => {
  it('one retry per worker per run: the first failure is retryable, the second is out', () => {
    expect(MAX_FAILURES_PER_WORKER).toBe(2);
    expect(MAX_FAILURES).toBe(2);
    expect([0, 1, 2, 3].map(hasRetryLeft)).toEqual([true, true, false, false]);
    expect([0, 1, 2].map(isOutOfRetries)).toEqual([false, false, true]);
    expect(isRetryable('timeout', 1)).toBe(true);
    expect(isRetryable('timeout', 2)).toBe(false);
    expect(isRetryable('completed', 1)).toBe(false);
  });

  it('every failing cause counts; completed and non-terminal statuses do not', () => {
    expect(FAILURE_STATUSES).toEqual(['timeout', 'error', 'not-run', 'stalled']);
    for (const s of ['timeout', 'error', 'not-run', 'stalled']) expect(isFailureStatus(s)).toBe(true);
    for (const s of ['completed', 'pending', 'in-progress', 'TIMEOUT', '']) expect(isFailureStatus(s)).toBe(false);
    // the count follows outcomes across dispatch kinds: initial timeout, reverify error → out
    let failures = 0;
    for (const outcome of ['timeout', 'completed', 'error']) failures = countFailure(failures, outcome);
    expect(failures).toBe(2);
    expect(hasRetryLeft(failures)).toBe(false);
  });
});
