// Legal variants of who starts a worker (issue #36 item 3): a row the lead started as its own native
// session leaves no dispatch record, whatever its dispatch kind; the last round's panes stay open until
// the user's approval gate. Each was a false alarm of invariant 23 before (the journeys and the held-out
// runs' native-session rows beside cli-wrapper ones). Not part of the build.
import { isWriter, shift, type LegalVariant } from './helpers.js';
import type { RunModel } from './model.js';

/** Make the row of `workerId` a native-session worker of the lead's host: its assignment's runner, its liveness mode. */
function makeNative(r: RunModel, workerId: string): void {
  r.editManifest((m) => {
    for (const a of m.workerAssignments)
      if ((a.workerId ?? a.provider) === workerId || (isWriter(a) && workerId === 'report-writer')) a.runner = 'native-session';
    m.workerDispatches = m.workerDispatches.filter((d: any) => d.workerId !== workerId);
  });
  r.editRow(
    (w) => w.workerId === workerId,
    (w) => {
      w.livenessMode = 'audit-heartbeat';
      w.auditSidecarPath ??= r.p.recorded(r.p.sidecar(workerId));
    },
  );
}

/** A run with records of some team-dispatched worker and a completed row of another worker it can make native. */
function nativeBeside(r: RunModel, pick: (w: any) => boolean): any | undefined {
  if (r.manifest.terminalBackend === 'cmux-pane' || r.manifest.workerDispatches.length === 0) return undefined;
  const row = r.rows.find((w) => w.status === 'completed' && pick(w));
  if (!row || !r.manifest.workerDispatches.some((d: any) => d.workerId !== row.workerId)) return undefined;
  return row;
}

export const RUNNER_LEGAL: LegalVariant[] = [
  {
    // A Claude Code lead's Claude analyser re-verifying round 1 as a sub-agent, recorded with worker-state
    // transition --dispatch-kind reverify-r1 (prompts/lead/adapters/claude-code.md), beside wrapper-dispatched rows.
    id: 'l-native-reverify-row-no-record',
    apply: (r) => {
      const row = nativeBeside(r, (w) => !isWriter(w));
      if (!row) return false;
      makeNative(r, row.workerId);
      r.editRow(
        (w) => w.workerId === row.workerId,
        (w) => void (w.dispatchKind = 'reverify-r1'),
      );
      return true;
    },
  },
  {
    // A report writer the lead started itself, recorded with --dispatch-kind report-writer (the texts' line).
    id: 'l-native-writer-kind-no-record',
    apply: (r) => {
      const row = nativeBeside(r, isWriter);
      if (!row) return false;
      makeNative(r, row.workerId);
      r.editRow(isWriter, (w) => void (w.dispatchKind = 'report-writer'));
      // A native writer heartbeats on its own (prompts/workers/audit-sidecar.md): every 4 minutes of its run.
      const side = r.p.sidecar(row.workerId);
      const beats: string[] = [];
      for (let t = row.startedAt; Date.parse(t) < Date.parse(row.endedAt); t = shift(t, 4)) beats.push(`- PROGRESS: ${t} report drafting the report`);
      r.set(side, `${beats.join('\n')}\n${r.has(side) ? r.text(side).replace(/^- PROGRESS: .*\n?/gm, '') : ''}`);
      return true;
    },
  },
  {
    // A run of an okstra before 0.161.0 persisted assignments, whose row says no liveness mode either: it
    // declares no runner, so nothing is required of it.
    id: 'l-older-row-no-route',
    apply: (r) => {
      const row = nativeBeside(r, (w) => !isWriter(w));
      if (!row) return false;
      r.editManifest((m) => {
        m.workerAssignments = [];
        m.workerDispatches = m.workerDispatches.filter((d: any) => d.workerId !== row.workerId);
      });
      r.editRow(
        (w) => w.workerId === row.workerId,
        (w) => {
          delete w.livenessMode;
          w.dispatchKind = 'reverify-r1';
        },
      );
      return true;
    },
  },
  {
    // A run at the approval gate: its last round's panes are reclaimed after the gate, earlier rounds' before.
    id: 'l-last-round-panes-open',
    apply: (r) => {
      const panes = r.manifest.workerDispatches.filter((d: any) => d.tornDownAt && d.backend !== 'subprocess');
      if (panes.length === 0) return false;
      const last = Math.max(...panes.map((d: any) => Date.parse(d.startedAt)));
      r.editManifest((m) => {
        for (const d of m.workerDispatches) if (d.tornDownAt && Date.parse(d.startedAt) === last) d.tornDownAt = null;
      });
      return true;
    },
  },
  {
    // The same, with the last round's teardown after the run's end (the gate passed, then teardown).
    id: 'l-teardown-after-run-end',
    apply: (r) => {
      if (!r.manifest.endedAt || !r.manifest.workerDispatches.some((d: any) => d.tornDownAt)) return false;
      const after = shift(r.manifest.endedAt, 30);
      r.editManifest((m) => {
        for (const d of m.workerDispatches) if (d.tornDownAt) d.tornDownAt = after;
      });
      return true;
    },
  },
];
