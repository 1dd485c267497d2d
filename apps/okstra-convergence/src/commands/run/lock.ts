import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { InputError } from '@okstra/cli-kit';
import { isWrapperAlive, processStartTime } from '@okstra/team-run';

/** What the run lock file holds: who runs the working state, since when (ISO-8601 UTC). */
interface RunLockBody {
  pid: number;
  /** The holder's `/proc` start time (`processStartTime`): a recycled pid is not the holder. */
  pidStartTime: string | null;
  startedAt: string;
}

/**
 * Take the run lock of `okstra convergence run` (docs/convergence.md "run"): the file `path`
 * created exclusively with this process's pid, its start time and `startedAt`. A lock whose
 * holder is alive (pid and start time match) is refused; one whose holder is gone (killed, crashed)
 * is taken over. Released by the returned function (only while it is still ours).
 * @throws InputError (exit 2) naming the lock file and the live holder's pid.
 */
export function takeRunLock(path: string, now: Date): () => void {
  const mine: RunLockBody = { pid: process.pid, pidStartTime: processStartTime(process.pid), startedAt: now.toISOString() };
  const text = JSON.stringify(mine) + '\n';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, text, { flag: 'wx' });
      return () => {
        if (readLock(path)?.pid === mine.pid) unlinkSync(path);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = readLock(path);
    if (held && isWrapperAlive(held.pid, held.pidStartTime)) {
      throw new InputError(`another okstra convergence run (pid ${held.pid}, since ${held.startedAt}) is running this working state`, {
        file: path,
        hint: 'wait for it to end; a run that was killed leaves this file, and the next run takes it over',
      });
    }
    // The holder is gone (or the file is torn: a kill between create and write): take it over.
    try {
      unlinkSync(path);
    } catch {
      // another taker removed it first; the exclusive create decides
    }
  }
  throw new InputError('could not take the run lock (another run keeps taking it)', { file: path });
}

function readLock(path: string): RunLockBody | null {
  try {
    const body = JSON.parse(readFileSync(path, 'utf8')) as RunLockBody;
    return typeof body?.pid === 'number' ? body : null;
  } catch {
    return null;
  }
}
