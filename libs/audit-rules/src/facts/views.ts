/**
 * Each fact-table artifact of one run, read once as the documents the table's paths walk (facts/table.ts): a JSON
 * artifact as parsed, a text artifact as a small view (`$text`, `$approved`, `$clarificationIds`, `$lastHeartbeat`),
 * a per-worker artifact keyed by its worker. An artifact that is absent, unreadable or not JSON has no document:
 * its unreadability is another invariant's (0, 21, 26) and the edge is left unchecked.
 */
import {
  carryPath,
  convergenceFinalStatePath,
  convergenceGroupsPath,
  finalReportDataPath,
  finalReportPath,
  joinPath,
  planItemsPath,
  reportWriterJobsPath,
  wrapperLogPath,
  wrapperStatusPath,
} from '@okstra/paths';
import { parseJsonText } from '@okstra/state-file';
import { parseHeartbeatLine } from '@okstra/heartbeat';
import { clarificationItems } from '../report/clarification-items.js';
import { publishesApproved } from '../report/frontmatter.js';
import { failureLinesOf, type RunUnderAudit } from '../run-context.js';
import { rowFiles } from '../checks/answers.js';
import { ofThisDispatch } from '../checks/agreement.js';
import { resolveRecorded } from '../checks/recorded-path.js';
import type { FactArtifact } from './table.js';
import { appendAll } from '@okstra/core';

/** One document of an artifact: the key it is filed under (a worker id, or ''), its file and what the paths walk. */
export interface FactDoc {
  key: string;
  file: string;
  view: unknown;
}

const views = new WeakMap<RunUnderAudit, Map<FactArtifact, Promise<FactDoc[]>>>();

/** The documents of `artifact` in `run`, read once per run. */
export function docsOf(run: RunUnderAudit, artifact: FactArtifact): Promise<FactDoc[]> {
  let byArtifact = views.get(run);
  if (!byArtifact) views.set(run, (byArtifact = new Map()));
  let docs = byArtifact.get(artifact);
  if (!docs) byArtifact.set(artifact, (docs = READERS[artifact](run)));
  return docs;
}

async function readJson(run: RunUnderAudit, file: string | null): Promise<unknown> {
  if (!file || !run.files.exists(file)) return undefined;
  const text = await run.files.readText(file);
  if (text === null) return undefined;
  try {
    return parseJsonText(text);
  } catch {
    return undefined;
  }
}

async function readText(run: RunUnderAudit, file: string | null): Promise<string | undefined> {
  if (!file || !run.files.exists(file)) return undefined;
  return (await run.files.readText(file)) ?? undefined;
}

const one = (file: string, view: unknown): FactDoc[] => (view === undefined ? [] : [{ key: '', file, view }]);
const stateFiles = (run: RunUnderAudit, re: RegExp) =>
  run.files
    .list(joinPath(run.runDir, 'state'))
    .filter((n) => re.test(n) && n.endsWith(`-${run.taskType}-${run.seq}.json`))
    .map((n) => joinPath(run.runDir, 'state', n));
const instant = (t: unknown) => (typeof t === 'string' ? Date.parse(t) : NaN);

const READERS: Record<FactArtifact, (run: RunUnderAudit) => Promise<FactDoc[]>> = {
  'run-manifest': async (run) => one(run.manifestPath, run.manifest),
  'team-state': async (run) => (run.teamState && run.teamStatePath ? one(run.teamStatePath, run.teamState) : []),
  'status-sidecar': async (run) => {
    const out: FactDoc[] = [];
    for (const row of run.teamState?.workers ?? []) {
      const prompt = rowFiles(run, row).prompt;
      const file = prompt ? wrapperStatusPath(prompt) : null;
      const text = await readText(run, file);
      let status: unknown;
      try {
        status = text === undefined ? undefined : parseJsonText(text);
      } catch {
        continue;
      }
      if (!status || typeof status !== 'object' || !ofThisDispatch(status as Record<string, unknown>, row.startedAt)) continue;
      const s = status as Record<string, unknown>;
      out.push({ key: row.workerId, file: file!, view: { ...s, $text: text, $elapsedMs: instant(s.endedAt) - instant(s.startedAt) } });
    }
    return out;
  },
  'report-writer-jobs': async (run) => {
    const file = reportWriterJobsPath(run.runDir, run);
    return one(file, await readJson(run, file));
  },
  'reverify-jobs': async (run) => {
    const out: FactDoc[] = [];
    for (const file of stateFiles(run, /^reverify-jobs-r\d+-/)) appendAll(out, one(file, await readJson(run, file)));
    return out;
  },
  'report-data': async (run) => {
    const file = finalReportDataPath(run.runDir, run);
    const text = await readText(run, file);
    let data: unknown;
    try {
      data = text === undefined ? undefined : parseJsonText(text);
    } catch {
      return [];
    }
    return data && typeof data === 'object' ? one(file, { ...data, $text: text }) : [];
  },
  report: async (run) => {
    const file = finalReportPath(run.runDir, run);
    const text = await readText(run, file);
    if (text === undefined) return [];
    const ids = clarificationItems(text).map((c) => c.id);
    return one(file, { $text: text, $approved: await publishesApproved(text), ...(ids.length > 0 ? { $clarificationIds: ids } : {}) });
  },
  'convergence-groups': async (run) => {
    const file = convergenceGroupsPath(run.runDir, run);
    const groups = await readJson(run, file);
    if (!groups || typeof groups !== 'object' || !Array.isArray((groups as { findings?: unknown }).findings)) return one(file, groups);
    // The seed digest is libs/convergence's: loaded only for a run that saved real groups.
    const { seedDigest } = await import('@okstra/convergence');
    let digest: string | undefined;
    try {
      digest = seedDigest(groups);
    } catch {
      digest = undefined;
    }
    return one(file, { ...groups, $digest: digest });
  },
  'convergence-plan': async (run) => {
    const out: FactDoc[] = [];
    for (const file of stateFiles(run, /^convergence-plan-r\d+-/)) appendAll(out, one(file, await readJson(run, file)));
    return out;
  },
  'convergence-final': async (run) => {
    const file = convergenceFinalStatePath(run.runDir, run);
    const final = (await readJson(run, file)) as { findings?: { id?: unknown }[]; criticGaps?: { id?: unknown }[] } | undefined;
    if (!final || typeof final !== 'object') return [];
    const ids = [...(Array.isArray(final.findings) ? final.findings : []), ...(Array.isArray(final.criticGaps) ? final.criticGaps : [])].map((f) => f?.id);
    return one(file, { ...final, $ids: ids.filter((x) => typeof x === 'string') });
  },
  'audit-sidecar': async (run) => {
    const out: FactDoc[] = [];
    for (const row of run.teamState?.workers ?? []) {
      if (row.livenessMode !== 'audit-heartbeat' || !row.auditSidecarPath) continue;
      const file = resolveRecorded(run.projectRoot, row.auditSidecarPath);
      const text = await readText(run, file);
      if (text === undefined) continue;
      let last: Date | undefined;
      for (const line of text.split(/\r?\n/)) {
        const beat = parseHeartbeatLine(line);
        if (beat && (last === undefined || beat.at > last)) last = beat.at;
      }
      out.push({ key: row.workerId, file: file!, view: { $lastHeartbeat: last?.toISOString() } });
    }
    return out;
  },
  'worker-result': async (run) => {
    const out: FactDoc[] = [];
    for (const row of run.teamState?.workers ?? []) {
      if (row.status !== 'completed') continue;
      const file = rowFiles(run, row).result;
      const text = await readText(run, file);
      if (text !== undefined) out.push({ key: row.workerId, file: file!, view: { $text: text } });
    }
    return out;
  },
  'errors-log': async (run) => failureLinesOf(run).map((l) => ({ key: '', file: l.file, view: l.line })),
  'plan-items': async (run) => {
    const file = planItemsPath(run.runDir, run);
    return one(file, await readJson(run, file));
  },
  carry: async (run) => {
    const stage = run.stage ?? run.manifest.stage;
    if (!stage) return [];
    const file = carryPath(run.taskRoot, stage);
    return one(file, await readJson(run, file));
  },
};

/**
 * The texts a result must not be a copy of: every row's wrapper status sidecar and log, and every saved prompt
 * and jobs file of the run (docs/run-audit.md "The fact graph": a result is its worker's answer, not another artifact).
 */
export async function otherArtifactTexts(run: RunUnderAudit): Promise<{ file: string; text: string }[]> {
  const out: { file: string; text: string }[] = [];
  const add = async (file: string | null) => {
    const text = await readText(run, file);
    if (text !== undefined && text.trim() !== '') out.push({ file: file!, text });
  };
  for (const row of run.teamState?.workers ?? []) {
    const prompt = rowFiles(run, row).prompt;
    if (!prompt) continue;
    await add(prompt);
    await add(wrapperStatusPath(prompt));
    await add(wrapperLogPath(prompt));
  }
  for (const file of stateFiles(run, /-jobs-/)) await add(file);
  return out;
}
