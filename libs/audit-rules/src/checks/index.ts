import type { RunCheck } from '../run-context.js';
import { checkDispatchAgreement, checkRoster } from './agreement.js';
import { checkAnswers } from './answers.js';
import { checkRecordedPathsBelong } from './belongs.js';
import { checkPlanDerived } from './plan-derived.js';
import { checkPlanEvidence } from './plan-evidence.js';
import { checkRunOrder, checkRunStale } from './order.js';
import { checkReportContent } from './report-content.js';
import { checkConvergence } from './convergence.js';
import { checkConvergenceDerived } from './convergence-derived.js';
import { checkCitedEvidence } from './cited-evidence.js';
import { checkDegradedDispatches, checkStageCarry } from './dispatch.js';
import { checkHeartbeatCadence } from './heartbeat.js';
import { checkClarificationRows, checkPlanVerification } from './plan-verification.js';
import { checkForeignArtifacts } from './provenance.js';
import { checkLeadReport, checkReportPresent } from './report.js';
import { checkReportWriterBypass } from './report-writer.js';
import { checkFutureStarts, checkRunTimes } from './run-times.js';
import { checkWorkerAudit } from './worker-audit.js';
import { checkWriteLeftovers } from './leftovers.js';
import { checkFailureLogged } from './failure-log.js';
import { checkFacts } from './facts.js';
import { checkSelectedWorkerRows, checkWorkerRows } from './workers.js';

/** Every run check, in catalogue order (docs/run-audit.md). Findings are sorted by invariant number afterwards. */
export const RUN_CHECKS: readonly RunCheck[] = [
  checkReportPresent,
  checkWorkerRows,
  checkLeadReport,
  checkConvergence,
  checkPlanVerification,
  checkPlanEvidence,
  checkHeartbeatCadence,
  checkStageCarry,
  checkDegradedDispatches,
  checkWorkerAudit,
  checkReportWriterBypass,
  checkSelectedWorkerRows,
  checkClarificationRows,
  checkRunTimes,
  checkForeignArtifacts,
  checkWriteLeftovers,
  (run) => checkFutureStarts(run),
  checkAnswers,
  checkRecordedPathsBelong,
  checkDispatchAgreement,
  checkRoster,
  checkRunStale,
  checkReportContent,
  checkRunOrder,
  checkFailureLogged,
  checkPlanDerived,
  checkConvergenceDerived,
  checkCitedEvidence,
  checkFacts,
];

export {
  checkClarificationRows,
  checkConvergence,
  checkFailureLogged,
  checkDegradedDispatches,
  checkForeignArtifacts,
  checkFutureStarts,
  checkHeartbeatCadence,
  checkLeadReport,
  checkPlanVerification,
  checkReportPresent,
  checkReportWriterBypass,
  checkRunTimes,
  checkSelectedWorkerRows,
  checkStageCarry,
  checkWorkerAudit,
  checkWorkerRows,
  checkWriteLeftovers,
};
export { BLOCKING_RESULTS, publishesApproved } from './plan-verification.js';
export { isInvalidWriterReason, isReportWriter, writerStartEvidence } from './report-writer.js';
export { hasReason } from './workers.js';
