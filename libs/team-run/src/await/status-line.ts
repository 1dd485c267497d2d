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

/**
 * The step lines of one poll: a line for each worker that ended since the last poll (`codex error (1 of 2 ended)`);
 * `reported` holds the workers already reported and is updated. A command shows these in every mode and
 * {@link awaitStatusLine} only as a terminal's live line.
 */
export function awaitEndedSteps({ records, ended }: Pick<AwaitProgress, 'records' | 'ended'>, reported: Set<string>): string[] {
  const lines: string[] = [];
  for (const r of records) {
    const e = ended.get(r.workerId);
    if (!e || reported.has(r.workerId)) continue;
    reported.add(r.workerId);
    lines.push(`${r.workerId} ${e.status} (${reported.size} of ${records.length} ended)`);
  }
  return lines;
}
