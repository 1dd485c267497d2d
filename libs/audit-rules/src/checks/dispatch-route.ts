import type { TeamStateRow } from '@okstra/schemas/team-state';
import { workerRoute, type WorkerRoute } from '@okstra/schemas/worker-route';
import type { RunUnderAudit } from '../run-context.js';

/** How a row's worker was started (libs/schemas `workerRoute`: the rule `team await` follows too). */
export function dispatchRoute(run: RunUnderAudit, row: Pick<TeamStateRow, 'workerId' | 'role' | 'livenessMode'>): WorkerRoute {
  return workerRoute(run.manifest, row);
}
