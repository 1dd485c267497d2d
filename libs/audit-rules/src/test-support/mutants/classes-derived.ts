// Derived documents against their sources (issue #24 item 2, "derived documents match
// their sources"): plan verdicts in data.json vs the saved plan-verify responses (S19).
// Not part of the build.
import { applyRound, createWorkingState, finalizeState } from '@okstra/convergence';
import { shift, writerRow, type LegalVariant, type MutationClass } from './helpers.js';
import type { RunModel } from './model.js';

/** The main run's current plan-verify responses (task-relative), worker → path. */
function responses(r: RunModel): Map<string, string> {
  const suffix = `-plan-verify-${r.main.taskType}-${r.main.seq}.md`;
  const out = new Map<string, string>();
  for (const f of r.matching(/\/worker-results\/[^/]+-plan-verify-[^/]+\.md$/)) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (name.endsWith(suffix)) out.set(name.slice(0, -suffix.length), f);
  }
  return out;
}

/** data.json's plan items, when the run saved plan-verify responses and data.json records their verdicts. */
function planItems(r: RunModel): any[] | null {
  if (responses(r).size === 0 || !r.has(r.p.data)) return null;
  const items = r.json(r.p.data)?.implementationPlanning?.planBodyVerification?.planItems;
  return Array.isArray(items) && items.length > 0 ? items : null;
}

const editItems = (r: RunModel, fn: (items: any[], pbv: any) => boolean): boolean => {
  if (!planItems(r)) return false;
  let hit = false;
  r.edit(r.p.data, (d: any) => void (hit = fn(d.implementationPlanning.planBodyVerification.planItems, d.implementationPlanning.planBodyVerification)));
  return hit;
};

/** The first AGREE of a worker that saved a response: [item, vote]. */
const firstAgree = (items: any[], workers: Map<string, string>) => {
  for (const item of items) for (const v of item.verdicts ?? []) if (v.verdict === 'AGREE' && workers.has(v.workerId)) return [item, v] as const;
  return null;
};

/** Rewrite the Verdict of `itemId`'s block in a response (the first Verdict line after its heading). */
function rewriteVerdict(text: string, itemId: string, to: string): string | null {
  const at = text.search(new RegExp(`^#{3,4} ${itemId}\\b`, 'm'));
  if (at < 0) return null;
  const rest = text.slice(at);
  const next = rest.replace(/(\*\*Verdict\*\*:|^Verdict:)[^\r\n]*/m, `$1 ${to}`);
  return next === rest ? null : text.slice(0, at) + next;
}

/** A response's first AGREE that data.json also records, its verdict rewritten to `to`: the file, the worker and the new text. */
function agreeInResponse(r: RunModel, to: string): { file: string; workerId: string; text: string } | null {
  const items = planItems(r);
  const hit = items && firstAgree(items, responses(r));
  if (!hit) return null;
  const file = responses(r).get(hit[1].workerId)!;
  const text = rewriteVerdict(r.text(file), hit[0].id, to);
  return text === null ? null : { file, workerId: hit[1].workerId, text };
}

export const DERIVED_CLASSES: MutationClass[] = [
  {
    id: 'd-s19-data-vote-flipped',
    rule: 'S19',
    apply: (r) => editItems(r, (items) => ((v) => !!v && ((v[1].verdict = 'SUPPLEMENT'), true))(firstAgree(items, responses(r)))),
  },
  {
    id: 'd-s19-data-disagree-kind-changed',
    rule: 'S19',
    apply: (r) =>
      editItems(r, (items) => {
        const v = items.flatMap((i) => i.verdicts ?? []).find((x: any) => x.verdict === 'DISAGREE' && responses(r).has(x.workerId));
        return !!v && ((v.breakageKind = v.breakageKind === 'c' ? 'd' : 'c'), true);
      }),
  },
  {
    id: 'd-s19-data-worker-dropped',
    rule: 'S19',
    apply: (r) =>
      editItems(r, (items, pbv) => {
        // Every vote of one worker, and the worker from the contributors, so the rows stay one complete round.
        const w = [...responses(r).keys()].at(-1);
        if (!w || (pbv.contributors ?? []).length < 2) return false;
        for (const i of items) i.verdicts = (i.verdicts ?? []).filter((v: any) => v.workerId !== w);
        pbv.contributors = (pbv.contributors ?? []).filter((c: string) => c !== w);
        return true;
      }),
  },
  {
    id: 'd-s19-response-vote-flipped',
    rule: 'S19',
    apply: (r) => {
      const hit = agreeInResponse(r, 'SUPPLEMENT');
      return !!hit && (r.set(hit.file, hit.text), true);
    },
  },
  {
    id: 'd-s19-vote-of-timeout',
    rule: 'S19',
    apply: (r) => {
      // The worker's plan-verify dispatch is recorded timeout, yet data.json counts its response.
      const w = [...responses(r).keys()].at(-1);
      if (!w || !planItems(r)) return false;
      return r.editRow(
        (x) => x.workerId === w && x.status === 'completed',
        (x) => Object.assign(x, { dispatchKind: 'plan-verify', status: 'timeout', reason: 'plan-verify: no answer within 20 min', attempt: 1 }),
      );
    },
  },
  {
    id: 'd-s19-vote-of-stale-response',
    rule: 'S19',
    apply: (r) => {
      // The worker's current response is gone; only a refused earlier attempt is left, and data.json still counts it.
      const [w, file] = [...responses(r)].at(-1) ?? [];
      if (!w || !file || !planItems(r)) return false;
      r.set(file.replace(/\.md$/, '.attempt-1.md'), r.text(file));
      r.del(file);
      r.editManifest((m) => {
        if (Array.isArray(m.planVerification?.responses)) m.planVerification.responses = m.planVerification.responses.filter((p: string) => !p.endsWith(file));
      });
      return true;
    },
  },
];

/** The main run's saved round-1 results and the first completed worker with votes and a saved response. */
function roundOne(r: RunModel): { results: string; workerId: string; response: string } | null {
  const results = r.p.roundResults(1);
  if (!r.has(results) || !r.has(r.p.roundPlan(1))) return null;
  const w = (r.json(results).workers as any[]).find((x) => x.status === 'completed' && x.verdicts?.length && r.has(r.p.reverify(x.workerId, 1)));
  return w ? { results, workerId: w.workerId, response: r.p.reverify(w.workerId, 1) } : null;
}

export const CONVERGENCE_DERIVED_CLASSES: MutationClass[] = [
  {
    id: 'd-s17-results-vote-flipped',
    rule: 'S17',
    apply: (r) => {
      const one = roundOne(r);
      if (!one) return false;
      r.edit(one.results, (x: any) => {
        const v = x.workers.find((w: any) => w.workerId === one.workerId).verdicts[0];
        v.verdict = v.verdict === 'agree' ? 'disagree' : 'agree';
      });
      return true;
    },
  },
  {
    id: 'd-s17-response-vote-flipped',
    rule: 'S17',
    apply: (r) => {
      const one = roundOne(r);
      if (!one) return false;
      const t = r.text(one.response);
      const next = t.includes('**Verdict**: SURVIVES')
        ? t.replace('**Verdict**: SURVIVES', '**Verdict**: REFUTED')
        : t.replace('**Verdict**: REFUTED', '**Verdict**: SURVIVES');
      return next !== t && (r.set(one.response, next), true);
    },
  },
  {
    id: 'd-s17-response-missing',
    rule: 'S17',
    apply: (r) => {
      const one = roundOne(r);
      return !!one && (r.del(one.response), true);
    },
  },
  {
    id: 'd-s17-final-claims-unsaved-round',
    rule: 'S17',
    apply: (r) => {
      if (!r.has(r.p.final) || !r.has(r.p.roundResults(1))) return false;
      for (const f of [r.p.roundResults(1), r.p.roundPlan(1), ...r.matching(/-reverify-r1-[^/]*\.md$/)]) r.del(f);
      return true;
    },
  },
  {
    id: 'd-s17-final-from-other-votes',
    rule: 'S17',
    apply: (r) => {
      // A self-consistent final state finalized from a round whose first vote was flipped: it validates, the saved round says otherwise.
      const one = roundOne(r);
      if (!one || !r.has(r.p.final) || !r.has(r.p.groups)) return false;
      const results = r.json(one.results);
      const v = results.workers.find((w: any) => w.workerId === one.workerId).verdicts[0];
      v.verdict = v.verdict === 'agree' ? 'disagree' : 'agree';
      if (v.verdict === 'disagree') v.disagreeBasis = v.explanation;
      else delete v.disagreeBasis;
      r.setJson(r.p.final, finalizeState(applyRound(createWorkingState(r.json(r.p.groups)), r.json(r.p.roundPlan(1)), results)));
      return true;
    },
  },
];

export const DERIVED_LEGAL: LegalVariant[] = [
  {
    id: 'l-reverify-repaired',
    apply: (r) => {
      // A repair of round 1: the refused first answer moved aside as `.attempt-1.md`; the current file is the one read.
      const one = roundOne(r);
      if (!one) return false;
      r.set(one.response.replace(/\.md$/, '.attempt-1.md'), r.text(one.response).replace(/\*\*Verdict\*\*: \w+/, '**Verdict**: SURVIVES or REFUTED'));
      return true;
    },
  },
  {
    id: 'l-reverify-crlf-bom',
    apply: (r) => {
      const files = r.matching(/-reverify-r1-[^/]*\.md$/);
      if (!roundOne(r)) return false;
      for (const f of files) r.set(f, '\uFEFF' + r.text(f).replace(/\r?\n/g, '\r\n'));
      return true;
    },
  },
  {
    id: 'l-plan-verify-repaired',
    apply: (r) => {
      // A repair: the refused first answer moved aside as `.attempt-1.md` (it says something else), the current file restates it.
      const hit = agreeInResponse(r, 'AGREE and DISAGREE');
      if (!hit) return false;
      r.set(hit.file.replace(/\.md$/, '.attempt-1.md'), hit.text);
      r.editRows((rows) => {
        const row = rows.find((x) => x.workerId === hit.workerId);
        if (row) Object.assign(row, { dispatchKind: 'repair-plan-verify', attempt: 1 });
      });
      return true;
    },
  },
  {
    id: 'l-plan-verify-stale-response-of-timeout',
    apply: (r) => {
      // A plan-verify dispatch recorded timeout after the initial one completed: its half-written response is not counted,
      // and data.json carries none of its votes.
      const items = planItems(r);
      const workers = responses(r);
      const w = [...workers.keys()].at(-1);
      if (!items || !w || workers.size < 2) return false;
      const draft = writerRow(r)?.endedAt;
      const end = r.manifest.endedAt;
      if (!draft || !end || Date.parse(end) - Date.parse(draft) < 3 * 60_000) return false;
      const hit = r.editRow(
        (x) => x.workerId === w && x.status === 'completed',
        (x) =>
          Object.assign(x, {
            dispatchKind: 'plan-verify',
            status: 'timeout',
            reason: 'plan-verify: no answer within 20 min',
            attempt: 1,
            startedAt: shift(draft, 1),
            endedAt: shift(draft, 2),
          }),
      );
      if (!hit) return false;
      r.set(workers.get(w)!, rewriteVerdict(r.text(workers.get(w)!), items[0].id, 'DISAGREE') ?? r.text(workers.get(w)!));
      r.edit(r.p.data, (d: any) => {
        const pbv = d.implementationPlanning.planBodyVerification;
        for (const i of pbv.planItems) i.verdicts = (i.verdicts ?? []).filter((v: any) => v.workerId !== w);
        pbv.contributors = (pbv.contributors ?? []).filter((c: string) => c !== w);
      });
      return true;
    },
  },
  {
    id: 'l-plan-verify-crlf-bom',
    apply: (r) => {
      const files = [...responses(r).values()];
      if (!planItems(r) || files.length === 0) return false;
      for (const f of files) r.set(f, '\uFEFF' + r.text(f).replace(/\r?\n/g, '\r\n'));
      return true;
    },
  },
];
