import { InputError, writeJson, type CliContext } from '@okstra/cli-kit';
import { assertDocumentKind, validateFinalState, validateWorkingState } from '@okstra/convergence';
import { readJsonFile } from '@okstra/state-file';
import { MAX_JSON_BYTES, pathArg } from './documents.js';

/**
 * `validate --state <p> --kind working|final`: `working` replays every applied
 * round from the seed and must arrive at the stored state; `final` checks
 * terminality and counts. Prints `{ ok, kind, errors }`; exit 0 when valid, 2 when
 * not (the first error also on stderr, naming the file).
 */
export async function runValidate(opts: { state: string; kind: 'working' | 'final' }, ctx: CliContext): Promise<number> {
  const path = pathArg(ctx.io, opts.state);
  const raw = await readJsonFile(path, { maxBytes: MAX_JSON_BYTES });
  const kind = opts.kind === 'working' ? 'convergence-working-state' : 'convergence-final-state';
  assertDocumentKind(raw, kind, path, `validate --kind ${opts.kind}`);
  const report = opts.kind === 'working' ? validateWorkingState(raw) : validateFinalState(raw);
  writeJson(ctx.io, { ok: report.ok, kind: opts.kind, state: path, errors: report.errors });
  if (!report.ok) throw new InputError(report.errors[0], { file: path });
  return 0;
}
