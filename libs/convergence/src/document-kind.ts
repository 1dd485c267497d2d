import { InputError } from '@okstra/core';

/** Every document kind okstra-convergence reads or writes. */
export type DocumentKind =
  'convergence-groups' | 'round-plan' | 'round-results' | 'critic-results' | 'coverage-batch' | 'convergence-working-state' | 'convergence-final-state';

/**
 * The kind of a parsed JSON document: its `kind` member, or — for the two
 * documents the lead may write without one — recognized by shape
 * (`candidates[]` → critic-results, `gaps[]` → coverage-batch, `batches[]` →
 * round-plan, `roster[]` + `findings[]` → groups). `undefined` when unknown.
 */
function documentKind(doc: unknown): string | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  if (typeof d.kind === 'string') return d.kind;
  if (Array.isArray(d.candidates)) return 'critic-results';
  if (Array.isArray(d.gaps)) return 'coverage-batch';
  if (Array.isArray(d.batches)) return 'round-plan';
  if (Array.isArray(d.roster) && Array.isArray(d.findings)) return 'convergence-groups';
  if (Array.isArray(d.workers) && typeof d.round === 'number') return 'round-results';
  return undefined;
}

/**
 * Refuse a document of another kind before its schema is checked, so the message
 * says which kind it got and which one the flag needs.
 * `hints` adds a second sentence for a given wrong kind.
 * @throws InputError (exit 2) naming `file` and both kinds.
 */
export function assertDocumentKind(doc: unknown, expected: DocumentKind, file: string, flag: string, hints: Partial<Record<string, string>> = {}): void {
  const got = documentKind(doc);
  if (got === undefined || got === expected) return;
  throw new InputError(`got a ${got} document, but ${flag} needs a ${expected} document`, { file, field: 'kind', hint: hints[got] });
}
