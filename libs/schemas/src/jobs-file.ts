import * as z from './zod.js';
import { defineArtifact } from './artifact.js';
import { ArtifactPath, NonEmptyString, ProviderId, WorkerId } from './common.js';
import { DISPATCH_KIND_PATTERN } from './vocabulary.js';

/**
 * `dispatchKind`: `initial` (a manifest dispatch), `reverify-r<N>`,
 * `report-writer`, or another okstra-generated kind of safe characters.
 */
export const DispatchKind = z.string().check(z.regex(DISPATCH_KIND_PATTERN, 'expected a dispatch kind like "reverify-r2"'));

/** One job of a jobs file (docs/contracts.md §7, cmux adapter text of the 0.161.0 seed). */
export const Job = z.looseObject({
  workerId: WorkerId,
  provider: ProviderId,
  /** Also the pane title, e.g. `worker-reverify-r2`. */
  role: NonEmptyString,
  modelExecutionValue: NonEmptyString,
  promptPath: ArtifactPath,
  resultPath: ArtifactPath,
  workerResultPath: ArtifactPath,
  /** Every path that must exist before the job counts as complete. */
  completionPaths: z.array(ArtifactPath).check(z.minLength(1)),
});
export type Job = z.infer<typeof Job>;

/** A jobs file: one `dispatchKind`, at most one job per worker. */
export const JobsFile = z
  .looseObject({
    schemaVersion: z.literal('1.0'),
    dispatchKind: DispatchKind,
    jobs: z.array(Job).check(z.minLength(1)),
  })
  .check(
    z.superRefine((file, ctx) => {
      const seen = new Set<string>();
      file.jobs.forEach((job, i) => {
        if (seen.has(job.workerId)) {
          ctx.addIssue({ code: 'custom', path: ['jobs', i, 'workerId'], message: `worker '${job.workerId}' has more than one job in this dispatch` });
        }
        seen.add(job.workerId);
      });
    }),
  );
export type JobsFile = z.infer<typeof JobsFile>;

export const jobsFileArtifact = defineArtifact('jobs-file', ['1.0'], 'okstra team dispatch jobs file', JobsFile);
