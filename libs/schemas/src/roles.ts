import type { PROVIDER_CAPABILITIES } from './vocabulary.js';

/**
 * Worker role labels → the provider capability each needs: the one roles
 * vocabulary (docs/providers.md "Roles → capability"; seed 002 standard
 * worker roles `Claude worker`, `Codex worker`, `Antigravity worker`,
 * `Report writer worker`; the Executor / Verifier of implementation runs; the
 * coverage critic; reverify jobs' `worker-reverify-r<N>`, plan-verify and
 * gap-vote jobs' `worker-plan-verify` and `worker-gap-vote`). Every label is
 * listed explicitly: a label that maps to none is refused, never guessed.
 * Matching ignores case and treats runs of spaces, `_` and `-` alike, so
 * `Report writer worker`, `report-writer-worker` and `REPORT_WRITER` are one
 * label each. No zod here: cheap to import.
 */

/** The capabilities a role can need (= provider-manifest `capabilities`, vocabulary.ts). */
export type RoleCapability = (typeof PROVIDER_CAPABILITIES)[number];

/**
 * Capabilities a read-only provider (`readOnly: true`: grok, kimi) can never
 * take, whatever its manifest declares: they write the project or the report.
 */
export const WRITE_CAPABILITIES: readonly RoleCapability[] = ['implementation', 'verification', 'report-writer'];

/** Every known role label (as the seeds and examples/ spell it) and its capability. */
export const ROLE_LABELS: Readonly<Record<string, RoleCapability>> = {
  'Claude worker': 'analysis',
  'Codex worker': 'analysis',
  'Antigravity worker': 'analysis',
  'Grok worker': 'analysis',
  'Kimi worker': 'analysis',
  worker: 'analysis',
  analyser: 'analysis',
  analyzer: 'analysis',
  'worker-reverify-r<N>': 'analysis',
  /** A plan-verify job's role (prompts/lead/plan-body-verification.md §2): an analyser judging the plan's `P-*` items. */
  'worker-plan-verify': 'analysis',
  /** A gap-vote job's role (prompts/lead/convergence-rounds.md §3): an analyser voting on the critic's candidates. */
  'worker-gap-vote': 'analysis',
  critic: 'critic',
  'Critic worker': 'critic',
  'Coverage critic': 'critic',
  Executor: 'implementation',
  implementer: 'implementation',
  implementation: 'implementation',
  Verifier: 'verification',
  'Plan verifier': 'verification',
  'Report writer worker': 'report-writer',
  'Report writer': 'report-writer',
};

/** A label in its matching form: lower case, every run of spaces/`_`/`-` one `-`, trimmed. */
export function normalizeRoleLabel(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-');
}

const BY_NORMAL = new Map(Object.entries(ROLE_LABELS).map(([label, cap]) => [normalizeRoleLabel(label), cap]));
/** `worker-reverify-r<N>` for N ≥ 1, in matching form. */
const REVERIFY = /^worker-reverify-r[1-9][0-9]*$/;

/** The capability a role label needs, or null when the label is not known (refuse it). */
export function capabilityOfRoleLabel(label: string): RoleCapability | null {
  const n = normalizeRoleLabel(label);
  if (REVERIFY.test(n)) return 'analysis';
  return BY_NORMAL.get(n) ?? null;
}

/** The known labels, for an error message listing them. */
export function knownRoleLabels(): string[] {
  return Object.keys(ROLE_LABELS);
}
