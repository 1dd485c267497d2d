import { resolve } from 'node:path';
import { InputError } from '@okstra/core';
import { AwaitReport } from '@okstra/schemas/team-await';
import { parseJsonText, readTextFile, validateValue } from '@okstra/state-file';

/** What a collector takes from a saved await report for the workers it collects. */
export interface AwaitOutcomes {
  /** `<worker>=<status>:<durationMs>`, the `--dispatch` form, one per worker the report judged. */
  dispatch: string[];
  /** `<worker>=<path>` for each worker that completed, its row's result path (as recorded: project-relative). */
  result: string[];
}

/**
 * Read `okstra team await --json` output saved as a file (`--await <file>` of collect-results,
 * collect-critic-gaps and plan-items collect-verdicts; docs/team.md "await") and give each judged worker's
 * outcome in the collectors' flag forms, limited to `workers` when given. A worker completed with no
 * result path recorded is refused: the collector would have nothing to read.
 * @throws InputError (exit 2) naming the file and the field when it is not an await report.
 */
export async function readAwaitOutcomes(file: string, cwd: string, workers?: ReadonlySet<string>): Promise<AwaitOutcomes> {
  const path = resolve(cwd, file);
  const report = validateValue(parseJsonText(await readTextFile(path, { label: file }), { label: file }), { schema: AwaitReport, label: file });
  const out: AwaitOutcomes = { dispatch: [], result: [] };
  report.workers.forEach((w, i) => {
    if (workers && !workers.has(w.workerId)) return;
    out.dispatch.push(`${w.workerId}=${w.status}:${w.durationMs}`);
    if (w.status !== 'completed') return;
    if (!w.resultPath)
      throw new InputError(`worker '${w.workerId}' completed but the report records no resultPath`, { file, field: `workers[${i}].resultPath` });
    out.result.push(`${w.workerId}=${w.resultPath}`);
  });
  return out;
}

/**
 * Merge the outcomes of `--await` with a command's own `--dispatch`/`--result` flags: a worker named by both is
 * refused (exit 2), since two sources for one outcome would let one silently win.
 */
export function mergeAwaitFlags(fromAwait: AwaitOutcomes, own: { dispatch: readonly string[]; result: readonly string[] }): AwaitOutcomes {
  const id = (flag: string) => flag.slice(0, flag.indexOf('='));
  for (const [kind, mine, theirs] of [
    ['--dispatch', own.dispatch, fromAwait.dispatch],
    ['--result', own.result, fromAwait.result],
  ] as const) {
    const twice = mine.map(id).find((w) => theirs.some((t) => id(t) === w));
    if (twice) throw new InputError(`worker '${twice}' has a ${kind} of its own and one from --await: give one`, { field: kind });
  }
  return { dispatch: [...fromAwait.dispatch, ...own.dispatch], result: [...fromAwait.result, ...own.result] };
}
