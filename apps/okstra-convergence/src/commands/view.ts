import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runCitationChecker } from '@okstra/citations';
import { writeJson, type CliContext } from '@okstra/cli-kit';
import {
  finalStateArtifact,
  TERMINAL_FINDING_STATUSES,
  type FindingStatus,
  type FinalState,
  type Verdict,
  type WorkingState,
} from '@okstra/schemas/convergence';
import { CONVERGENCE_VERDICT_WORDS } from '@okstra/schemas/vocabulary';
import { escHtml, legendHtml, STATUS_ORDER, viewCss, VOTE_STYLE } from './view-style.js';
import { assertOutputNotInput, writeTextAtomic } from '@okstra/state-file';
import { note, pathArg, readDocument, readWorkingState } from './documents.js';

/**
 * `view --work-state <p> [--final-state <p>] --html <out.html>`: one self-contained HTML file
 * (inline CSS, no script, no network, no external asset) picturing the run (docs/convergence.md "view"):
 * a finding × round matrix, each cell the votes cast on the finding in that round with their Basis
 * behind a `<details>`; retries, timeouts, errors, drops and repairs marked; each finding's status and
 * why, and its evidence status (how many of its citations hold: libs/citations); contested findings first, then
 * pending, then the rest in seed order; totals per status (the final
 * state's counts when given), a legend, and each worker's votes per round. Works mid-run.
 * Prints `{ html, findings, criticGaps, rounds }`: `findings` counts the seed's findings, `criticGaps`
 * the critic's gaps shown after them (a final state's `counts.total` adds only the accepted gaps).
 */
export async function runView(opts: { workState: string; finalState?: string; html: string }, ctx: CliContext): Promise<number> {
  const statePath = pathArg(ctx.io, opts.workState);
  const out = pathArg(ctx.io, opts.html);
  const finalPath = opts.finalState === undefined ? undefined : pathArg(ctx.io, opts.finalState);
  assertOutputNotInput({ path: out, flag: '--html' }, [
    { path: statePath, flag: '--work-state' },
    ...(finalPath ? [{ path: finalPath, flag: '--final-state' }] : []),
  ]);
  const state = await readWorkingState(statePath);
  const final = finalPath ? await readDocument(finalPath, { kind: 'convergence-final-state', flag: '--final-state', artifact: finalStateArtifact }) : undefined;
  const html = renderRunView(state, final, evidenceStatus(statePath, state));
  await mkdir(dirname(out), { recursive: true });
  await writeTextAtomic(out, html);
  writeJson(ctx.io, { html: out, findings: state.seed.findings.length, criticGaps: state.criticBatch?.gaps.length ?? 0, rounds: state.rounds.length });
  note(ctx, `view written: ${out}`);
  return 0;
}

/** The view's HTML (deterministic: the same states give the same bytes). */
export function renderRunView(state: WorkingState, final?: FinalState, evidence: ReadonlyMap<string, { ok: boolean; text: string }> = new Map()): string {
  const words = verdictWords(state.seed.mode);
  const standing = new Map(state.derived.findings.map((f) => [f.id, f]));
  const finalById = new Map((final?.findings ?? []).map((f: { id: string; status: string; reason?: string | null }) => [f.id, f]));
  const rows = state.seed.findings
    .map((f, i) => {
      const s = standing.get(f.id);
      const fin = finalById.get(f.id);
      return { f, i, status: fin?.status ?? s?.status ?? 'pending', reason: fin?.reason ?? s?.reason ?? null, decided: s?.decidedInRound ?? null };
    })
    .sort((a, b) => rank(a.status) - rank(b.status) || a.i - b.i);
  const dropped = state.derived.workers.filter((w) => w.droppedInRound !== null);
  const head = state.rounds.map((r) => {
    const marks = r.results.workers
      .map((w) => {
        const batch = r.plan.batches.find((b) => b.workerId === w.workerId);
        const tags = [batch && batch.priorFailures > 0 ? 'retry' : '', w.status !== 'completed' ? w.status : '', repairOf(w)].filter(Boolean);
        return `<span class="w ${esc(w.status)}">${esc(w.workerId)}${tags.length ? ` <em>${esc(tags.join(', '))}</em>` : ''}</span>`;
      })
      .join(' ');
    return `<th scope="col">round ${r.round}<div class="workers">${marks}</div></th>`;
  });
  const vote = (workerId: string, v: { verdict: string; explanation: unknown }, note = '', retry = false) =>
    `<details class="vote ${esc(v.verdict)}${retry ? ' retry' : ''}"><summary><span class="mark">${esc(VOTE_STYLE[v.verdict as Verdict]?.mark ?? '')}</span> ${esc(workerId)}: ${esc(words[v.verdict] ?? v.verdict)}${note}</summary><div class="basis">${esc(v.explanation)}</div></details>`;
  const body = rows.map(({ f, status, reason, decided }) => {
    const cells = state.rounds.map((r) => {
      const parts: string[] = [];
      for (const b of r.plan.batches.filter((x) => x.findingIds.includes(f.id))) {
        const w = r.results.workers.find((x) => x.workerId === b.workerId);
        const v = w?.verdicts.find((x) => x.findingId === f.id);
        const retry = b.priorFailures > 0;
        if (v) parts.push(vote(b.workerId, v, `${retry ? ' (retry)' : ''}${repairOf(w) ? ` (${repairOf(w)})` : ''}`, retry));
        else
          parts.push(`<div class="vote missing${retry ? ' retry' : ''}">${esc(b.workerId)}: ${esc(w?.status ?? 'no outcome')}${retry ? ' (retry)' : ''}</div>`);
      }
      return `<td>${parts.join('') || '<span class="none">—</span>'}</td>`;
    });
    const why = reason ? `${reason}${decided !== null ? ` (round ${decided})` : ''}` : decided === 0 ? 'at seed' : '';
    return `<tr class="finding ${esc(status)}" id="${esc(f.id)}"><th scope="row"><span class="fid">${esc(f.id)}</span> ${esc(f.title)}<div class="status">${esc(status)}${why ? ` — ${esc(why)}` : ''}</div>${evidenceLine(evidence.get(f.id))}</th>${cells.join('')}</tr>`;
  });
  const gaps = (state.criticBatch?.gaps ?? []).map((g) => {
    const decision = state.derived.criticGaps.find((d) => d.id === g.id)?.decision ?? 'pending';
    const votes = g.votes.map((v) => vote(v.workerId, v)).join('');
    return `<tr class="finding gap ${esc(decision)}" id="${esc(g.id)}"><th scope="row"><span class="fid">${esc(g.id)}</span> ${esc(g.title)}<div class="status">critic gap: ${esc(decision)}</div></th><td colspan="${Math.max(1, state.rounds.length)}">${votes}</td></tr>`;
  });
  const title = `okstra convergence — ${state.seed.taskKey ?? ''} ${state.seed.taskType ?? ''} ${state.seed.seq ?? ''}`.trim();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>
${viewCss()}
</style></head><body>
<h1>${esc(title)}</h1>
<p>mode ${esc(state.seed.mode)}, round ${state.derived.round} of limit ${state.seed.roundLimit}; queue ${state.derived.queueTerminal ? 'terminal' : 'open'}${final ? '; finalized' : ''}.
Dropped: ${dropped.length ? dropped.map((w) => `${esc(w.workerId)} (round ${w.droppedInRound})`).join(', ') : 'nobody'}.</p>
${totalsHtml(
  rows.map((r) => r.status),
  final,
)}
${legendHtml()}
<h2>Findings</h2>
<table class="findings"><thead><tr><th scope="col">finding</th>${head.join('')}</tr></thead>
<tbody>
${[...body, ...gaps].join('\n')}
</tbody></table>
${workersHtml(state)}
</body></html>
`;
}

/** A status's place in the display order (contested first); unknown statuses last. */
function rank(status: string): number {
  const i = STATUS_ORDER.indexOf(status as FindingStatus);
  return i < 0 ? STATUS_ORDER.length : i;
}

/** The mode's own word for each vote (`disagree` → `REFUTED` in adversarial mode). */
function verdictWords(mode: string): Record<string, string> {
  const table = CONVERGENCE_VERDICT_WORDS[mode as keyof typeof CONVERGENCE_VERDICT_WORDS] ?? {};
  return Object.fromEntries(Object.entries(table).map(([word, vote]) => [vote, word]));
}

/**
 * Totals per status: the final state's `counts` (what `validate --kind final` checks) when one is given, else the
 * findings' current statuses (pending included). Each total carries `data-status` and `data-count`.
 */
function totalsHtml(statuses: readonly string[], final?: FinalState): string {
  const counts: Record<string, number> = final
    ? { total: final.counts.total, ...Object.fromEntries(TERMINAL_FINDING_STATUSES.map((s) => [s, final.counts[s]])) }
    : { total: statuses.length, ...Object.fromEntries(STATUS_ORDER.map((s) => [s, statuses.filter((x) => x === s).length])) };
  const order = ['total', ...STATUS_ORDER.filter((s) => s in counts)];
  const items = order.map((s) => `<li class="total ${s}" data-status="${s}" data-count="${counts[s]}"><b>${counts[s]}</b>${s}</li>`);
  return `<ul class="totals" aria-label="totals per status${final ? ' (final state)' : ''}">${items.join('')}</ul>`;
}

/** Each worker's votes per round (and on the critic's gaps): one chip per vote kind with its count, or how the worker ended. */
function workersHtml(state: WorkingState): string {
  const roster = state.seed.roster.map((w) => w.workerId);
  const gapsVoted = (state.criticBatch?.gaps ?? []).length > 0;
  const chips = (verdicts: readonly { verdict: string }[]) =>
    (Object.keys(VOTE_STYLE) as Verdict[])
      .map((v) => [v, verdicts.filter((x) => x.verdict === v).length] as const)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `<span class="chip ${v}" data-vote="${v}" data-count="${n}">${VOTE_STYLE[v].mark} ${n} ${v}</span>`)
      .join('');
  const rows = roster.map((id) => {
    const role = state.seed.roster.find((w) => w.workerId === id)?.role ?? '';
    const cells = state.rounds.map((r) => {
      const w = r.results.workers.find((x) => x.workerId === id);
      if (!w) return '<td><span class="none">—</span></td>';
      const retry = (r.plan.batches.find((b) => b.workerId === id)?.priorFailures ?? 0) > 0 ? ' <em>retry</em>' : '';
      const outcome = w.status === 'completed' ? '' : `<span class="w ${esc(w.status)}">${esc(w.status)}</span> `;
      return `<td>${outcome}${chips(w.verdicts)}${retry}</td>`;
    });
    const gapVotes = (state.criticBatch?.gaps ?? []).flatMap((g) => g.votes.filter((v) => v.workerId === id));
    const gapCell = gapsVoted ? `<td>${chips(gapVotes) || '<span class="none">—</span>'}</td>` : '';
    return `<tr class="worker" id="worker-${esc(id)}"><th scope="row">${esc(id)} <span class="status">${esc(role)}</span></th>${cells.join('')}${gapCell}</tr>`;
  });
  const head = `${state.rounds.map((r) => `<th scope="col">round ${r.round}</th>`).join('')}${gapsVoted ? '<th scope="col">critic gaps</th>' : ''}`;
  return `<h2>Each worker's votes per round</h2>
<table class="worker-votes"><thead><tr><th scope="col">worker</th>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}

/**
 * The repair recorded on a round outcome by `collect-results --repair` (schema `RepairRecord`,
 * docs/convergence.md "Repair dispatch"), as the header and vote cells mark it: `repaired` when the
 * restated answer was read, `repair <outcome>` when it was refused again or ended timeout/error; '' when none.
 */
function repairOf(w: unknown): string {
  const r = (w as { repair?: { outcome?: unknown } } | undefined)?.repair;
  if (!r || typeof r !== 'object') return '';
  return r.outcome === 'read' ? 'repaired' : `repair ${String(r.outcome ?? 'recorded')}`;
}

const esc = escHtml;

/**
 * Each finding's evidence status for the view (libs/citations, against the run's project; docs/worker-audit-check.md
 * "Citations checked"): `n/m citations hold`, with the ones that do not and why. Empty when nothing can be checked.
 */
function evidenceStatus(statePath: string, state: WorkingState): Map<string, { ok: boolean; text: string }> {
  const out = new Map<string, { ok: boolean; text: string }>();
  const seed = state.seed as { taskType?: string; seq?: string };
  const checker = seed.taskType && seed.seq ? runCitationChecker(dirname(dirname(statePath)), { taskType: seed.taskType, seq: seed.seq }) : null;
  if (checker?.status !== 'ready') return out;
  for (const f of state.seed.findings) {
    const cited = f.evidence.filter((e) => !e.includes('`'));
    if (cited.length === 0) continue;
    const { citations } = checker.check(cited.map((e) => `\`${e}\``).join('\n'), null);
    const failing = citations.filter((c) => !c.holds);
    const text = `evidence: ${citations.length - failing.length}/${citations.length} citations hold${failing.length ? ` (${failing.map((c) => `${c.citation}: ${c.problem}`).join(', ')})` : ''}`;
    out.set(f.id, { ok: failing.length < citations.length, text });
  }
  return out;
}

/** A finding's evidence line (issue 42): red when none of its citations holds. */
function evidenceLine(e: { ok: boolean; text: string } | undefined): string {
  return e
    ? `<div class="evidence${e.ok ? '' : ' unheld'}" style="font-weight:normal;font-size:12px;color:${e.ok ? '#070' : '#b00'}">${esc(e.text)}</div>`
    : '';
}
