import { LOCK_SUFFIX, TEMP_MARK } from '@okstra/state-file';
import { runArtifactDirs } from '../files.js';
import { runEnded, type Finding, type RunUnderAudit } from '../run-context.js';

/**
 * Invariant 19 `write-leftover`: an ended run's artifact directories hold a
 * temp file of an atomic write (`.<name>.okstra-tmp-<pid>-<hex>`) or a lock
 * (`<name>.lock`) — a writer was killed and no later writer of that file came
 * to clean it (docs/conventions.md "Writing files", "Locks"). A running run
 * may hold both legitimately, so it is not judged.
 */
export function checkWriteLeftovers(run: RunUnderAudit): Finding[] {
  if (!runEnded(run)) return [];
  const out: Finding[] = [];
  for (const dir of runArtifactDirs(run.runDir)) {
    for (const name of run.files.list(dir)) {
      const lock = name.endsWith(LOCK_SUFFIX);
      if (!lock && !name.includes(TEMP_MARK)) continue;
      const kind = lock ? 'a lock' : 'a temp file of an interrupted write';
      out.push({
        invariant: 'write-leftover',
        message: `the ended run left ${kind}: ${name} (remove it once no okstra command runs on this run)`,
        evidence: [`${dir}/${name}`],
      });
    }
  }
  return out;
}
