import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeJson, type CliContext } from '@okstra/cli-kit';
import { finalStateArtifact, type FinalState, type WorkingState } from '@okstra/schemas/convergence';
import { assertOutputNotInput, writeTextAtomic } from '@okstra/state-file';
import { note, pathArg, readDocument, readWorkingState } from './documents.js';

/**
 * `view --work-state <p> [--final-state <p>] --html <out.html>`: one self-contained HTML file
 * (inline CSS, no script, no network, no external asset) picturing the run (docs/convergence.md "view"):
 * a finding × round matrix, each cell the votes cast on the finding in that round with their Basis
 * behind a `<details>`; retries, timeouts, errors, drops and repairs marked; each finding's status and
 * why; contested findings first, then pending, then the rest in seed order. Works mid-run.
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
  const html = renderRunView(state, final);
  await mkdir(dirname(out), { recursive: true });
  await writeTextAtomic(out, html);
  writeJson(ctx.io, { html: out, findings: state.seed.findings.length, criticGaps: state.criticBatch?.gaps.length ?? 0, rounds: state.rounds.length });
  note(ctx, `view written: ${out}`);
  return 0;
}

const ORDER: Record<string, number> = { contested: 0, pending: 1, unverifiable: 2, refuted: 3, agreed: 4 };

/** The view's HTML (deterministic: the same states give the same bytes). */
export function renderRunView(state: WorkingState, final?: FinalState): string {
  const standing = new Map(state.derived.findings.map((f) => [f.id, f]));
  const finalById = new Map((final?.findings ?? []).map((f: { id: string; status: string; reason?: string | null }) => [f.id, f]));
  const rows = state.seed.findings
    .map((f, i) => {
      const s = standing.get(f.id);
      const fin = finalById.get(f.id);
      return { f, i, status: fin?.status ?? s?.status ?? 'pending', reason: fin?.reason ?? s?.reason ?? null, decided: s?.decidedInRound ?? null };
    })
    .sort((a, b) => (ORDER[a.status] ?? 9) - (ORDER[b.status] ?? 9) || a.i - b.i);
  const dropped = state.derived.workers.filter((w) => w.droppedInRound !== null);
  const head = state.rounds.map((r) => {
    const marks = r.results.workers
      .map((w) => {
        const batch = r.plan.batches.find((b) => b.workerId === w.workerId);
        const tags = [batch && batch.priorFailures > 0 ? 'retry' : '', w.status !== 'completed' ? w.status : '', repairOf(w)].filter(Boolean);
        return `<span class="w ${w.status}">${esc(w.workerId)}${tags.length ? ` <em>${esc(tags.join(', '))}</em>` : ''}</span>`;
      })
      .join(' ');
    return `<th scope="col">round ${r.round}<div class="workers">${marks}</div></th>`;
  });
  const body = rows.map(({ f, status, reason, decided }) => {
    const cells = state.rounds.map((r) => {
      const parts: string[] = [];
      for (const b of r.plan.batches.filter((x) => x.findingIds.includes(f.id))) {
        const w = r.results.workers.find((x) => x.workerId === b.workerId);
        const v = w?.verdicts.find((x) => x.findingId === f.id);
        const retry = b.priorFailures > 0 ? ' retry' : '';
        if (v) {
          parts.push(
            `<details class="vote ${esc(v.verdict)}${retry}"><summary>${esc(b.workerId)}: ${esc(v.verdict)}${retry ? ' (retry)' : ''}${repairOf(w) ? ` (${repairOf(w)})` : ''}</summary><div class="basis">${esc(v.explanation)}</div></details>`,
          );
        } else parts.push(`<div class="vote missing${retry}">${esc(b.workerId)}: ${esc(w?.status ?? 'no outcome')}${retry ? ' (retry)' : ''}</div>`);
      }
      return `<td>${parts.join('') || '<span class="none">—</span>'}</td>`;
    });
    const why = reason ? `${reason}${decided !== null ? ` (round ${decided})` : ''}` : decided === 0 ? 'at seed' : '';
    return `<tr class="finding ${esc(status)}" id="${esc(f.id)}"><th scope="row"><span class="fid">${esc(f.id)}</span> ${esc(f.title)}<div class="status">${esc(status)}${why ? ` — ${esc(why)}` : ''}</div></th>${cells.join('')}</tr>`;
  });
  const gaps = (state.criticBatch?.gaps ?? []).map((g) => {
    const decision = state.derived.criticGaps.find((d) => d.id === g.id)?.decision ?? 'pending';
    const votes = g.votes
      .map(
        (v) =>
          `<details class="vote ${esc(v.verdict)}"><summary>${esc(v.workerId)}: ${esc(v.verdict)}</summary><div class="basis">${esc(v.explanation)}</div></details>`,
      )
      .join('');
    return `<tr class="finding gap ${esc(decision)}" id="${esc(g.id)}"><th scope="row"><span class="fid">${esc(g.id)}</span> ${esc(g.title)}<div class="status">critic gap: ${esc(decision)}</div></th><td colspan="${Math.max(1, state.rounds.length)}">${votes}</td></tr>`;
  });
  const title = `okstra convergence — ${state.seed.taskKey ?? ''} ${state.seed.taskType ?? ''} ${state.seed.seq ?? ''}`.trim();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}th,td{border:1px solid #ccc;padding:.4em;vertical-align:top;text-align:left}
thead th{background:#f4f4f4}.workers{font-weight:normal;font-size:12px}.w{margin-right:.5em}.w em{color:#a40}
.w.timeout,.w.error,.w.not-run{color:#b00}.fid{font-family:monospace;font-weight:bold}
tr.contested th[scope=row]{background:#fde2e2}tr.pending th[scope=row]{background:#fff6d6}tr.agreed th[scope=row]{background:#e3f6e3}
tr.refuted th[scope=row]{background:#eee}.status{font-weight:normal;font-size:12px;color:#555}
.vote{margin:.15em 0}.vote summary{cursor:pointer}.vote.missing{color:#b00}.vote.retry summary,.vote.retry{font-style:italic}
.REFUTED summary,.DISAGREE summary{color:#b00}.SURVIVES summary,.AGREE summary{color:#070}.basis{white-space:pre-wrap;font-size:12px;max-width:40em}
.none{color:#aaa}
</style></head><body>
<h1>${esc(title)}</h1>
<p>mode ${esc(state.seed.mode)}, round ${state.derived.round} of limit ${state.seed.roundLimit}; queue ${state.derived.queueTerminal ? 'terminal' : 'open'}${final ? '; finalized' : ''}.
Dropped: ${dropped.length ? dropped.map((w) => `${esc(w.workerId)} (round ${w.droppedInRound})`).join(', ') : 'nobody'}.</p>
<table><thead><tr><th scope="col">finding</th>${head.join('')}</tr></thead>
<tbody>
${[...body, ...gaps].join('\n')}
</tbody></table>
</body></html>
`;
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

function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
