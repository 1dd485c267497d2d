import * as z from './zod.js';
import { NonNegativeInt, WorkerId } from './common.js';
import { TERMINAL_WORKER_STATUSES } from './vocabulary.js';

/**
 * The parts of `okstra team await --json` a collector reads (docs/team.md "await"): one terminal outcome per
 * judged worker, native-session ones included, with the row's result path. The document is await's stdout saved
 * as is; every other key is kept and ignored.
 */
export const AwaitReport = z.looseObject({
  round: z.string(),
  workers: z.array(
    z.looseObject({
      workerId: WorkerId,
      status: z.enum(TERMINAL_WORKER_STATUSES),
      durationMs: NonNegativeInt,
      resultPath: z.optional(z.nullable(z.string().check(z.minLength(1)))),
    }),
  ),
});
export type AwaitReport = z.infer<typeof AwaitReport>;
