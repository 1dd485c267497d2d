/**
 * Expected duration of a worker per task type, in minutes (0.161.0
 * claude-code adapter text; okstra-team issue: requirements-discovery 20,
 * error-analysis 30, implementation-planning 40, implementation 40,
 * final-verification 20). The per-worker deadline is twice this.
 */
export const EXPECTED_MINUTES: Readonly<Record<string, number>> = {
  'requirements-discovery': 20,
  'error-analysis': 30,
  'implementation-planning': 40,
  implementation: 40,
  'final-verification': 20,
};

/** Expected duration assumed for a task type without a figure (docs/team.md). */
export const DEFAULT_EXPECTED_MINUTES = 30;

/**
 * The per-worker deadline in ms: `--deadline <minutes>` when given, else
 * twice the task type's expected duration.
 */
export function workerDeadlineMs(taskType: string, overrideMinutes?: number): number {
  const minutes = overrideMinutes ?? 2 * (EXPECTED_MINUTES[taskType] ?? DEFAULT_EXPECTED_MINUTES);
  return Math.round(minutes * 60_000);
}
