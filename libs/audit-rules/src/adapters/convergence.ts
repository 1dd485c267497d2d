/**
 * Adapter to the convergence final-state validator of libs/convergence (the
 * one home of `validate --kind final`; ARCHITECTURE.md §2). Only the calling
 * convention is adapted here — the rule itself is never copied.
 */
import * as convergence from '@okstra/convergence';

type Validator = (state: unknown) => unknown;

/**
 * @returns null when `state` is a valid terminal final state, else the
 *   validator's first problem as one line.
 * @throws Error when libs/convergence exports no `validateFinalState` (a build defect, not an input problem).
 */
export async function finalStateProblem(state: unknown): Promise<string | null> {
  const validate = (convergence as unknown as { validateFinalState?: Validator }).validateFinalState;
  if (typeof validate !== 'function') throw new Error('@okstra/convergence exports no validateFinalState');
  try {
    return describe(await validate(state));
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function describe(result: unknown): string | null {
  if (result === undefined || result === null || result === true) return null;
  if (result === false) return 'invalid';
  if (typeof result === 'object') {
    const r = result as { ok?: boolean; valid?: boolean; errors?: unknown[]; problems?: unknown[]; message?: string };
    if (r.ok === true || r.valid === true) return null;
    const first = (r.errors ?? r.problems ?? [])[0];
    if (first !== undefined) return typeof first === 'string' ? first : JSON.stringify(first);
    if (r.ok === false || r.valid === false) return r.message ?? 'invalid';
  }
  return null;
}
