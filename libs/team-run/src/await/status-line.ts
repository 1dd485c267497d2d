import type { AwaitProgress } from './await.js';
import { elapsed } from './judge.js';

/** The text of a TTY progress line: each worker's end, or its elapsed time and the age of its newest heartbeat. */
export function awaitStatusLine({ records, ended, lastBeat, rows, now }: AwaitProgress): string {
  return records
    .map((r) => {
      const e = ended.get(r.workerId);
      if (e) return `${r.workerId} ${e.status}`;
      const row = rows.find((w) => w.workerId === r.workerId);
      const beat = lastBeat.get(r.workerId);
      const hb = beat ? `, heartbeat ${Math.round(elapsed(beat, now) / 1000)}s ago` : '';
      return `${r.workerId} ${Math.round(elapsed(row?.startedAt, now) / 1000)}s${hb}`;
    })
    .join(' | ');
}
