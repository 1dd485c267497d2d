import type { RunCheck } from '../run-context.js';
import { checkConvergence } from './convergence.js';
import { checkDegradedDispatches, checkStageCarry } from './dispatch.js';
import { checkHeartbeatCadence } from './heartbeat.js';
import { checkPlanVerification } from './plan-verification.js';
import { checkLeadReport, checkReportPresent } from './report.js';
import { checkWorkerAudit } from './worker-audit.js';
import { checkWorkerRows } from './workers.js';

/** Every run check, in catalogue order (docs/run-audit.md). Findings are sorted by invariant number afterwards. */
export const RUN_CHECKS: readonly RunCheck[] = [
  checkReportPresent,
  checkWorkerRows,
  checkLeadReport,
  checkConvergence,
  checkPlanVerification,
  checkHeartbeatCadence,
  checkStageCarry,
  checkDegradedDispatches,
  checkWorkerAudit,
];

export {
  checkConvergence,
  checkDegradedDispatches,
  checkHeartbeatCadence,
  checkLeadReport,
  checkPlanVerification,
  checkReportPresent,
  checkStageCarry,
  checkWorkerAudit,
  checkWorkerRows,
};
export { publishesApproved } from './plan-verification.js';
export { hasReason } from './workers.js';
