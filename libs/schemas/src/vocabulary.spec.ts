import { describe, expect, it } from 'vitest';
import { ConvergenceMode, DispatchStatus, RosterRole, Verdict } from './convergence.js';
import { BreakageKind, Fixability, PlanVerdictWord } from './implementation-planning.js';
import { ProviderCapability } from './provider-manifest.js';
import { LivenessMode, WorkerStatus } from './team-state.js';
import {
  isPendingLivenessVerdict,
  isTerminalWorkerStatus,
  requiresReason,
  retryDispatchKind,
  reverifyDispatchKind,
  TRANSITION_STATUSES,
  WORKER_STATUSES,
} from './vocabulary.js';

describe('vocabulary', () => {
  it('is what the artifact schemas accept', () => {
    expect(WorkerStatus.options).toEqual(['pending', 'in-progress', 'completed', 'timeout', 'error', 'not-run']);
    expect(TRANSITION_STATUSES).toEqual(WORKER_STATUSES.filter((s) => s !== 'pending'));
    expect(DispatchStatus.options).toEqual(['completed', 'timeout', 'error', 'not-run']);
    expect(LivenessMode.options).toEqual(['audit-heartbeat', 'wrapper-status']);
    expect(ConvergenceMode.options).toEqual(['adversarial', 'collaborative']);
    expect(RosterRole.options).toEqual(['analyser', 'critic']);
    expect(Verdict.options).toEqual(['agree', 'disagree', 'supplement', 'unverifiable']);
    expect(PlanVerdictWord.options).toEqual(['AGREE', 'DISAGREE', 'SUPPLEMENT']);
    expect(BreakageKind.options).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(Fixability.options).toEqual(['in-place', 'replan', 'needs-clarification']);
    expect(ProviderCapability.options).toEqual(['analysis', 'critic', 'implementation', 'verification', 'report-writer']);
  });

  it('says which statuses are terminal and which need a reason', () => {
    expect(WORKER_STATUSES.filter(isTerminalWorkerStatus)).toEqual(['completed', 'timeout', 'error', 'not-run']);
    expect(WORKER_STATUSES.filter(requiresReason)).toEqual(['timeout', 'error', 'not-run']);
    expect(['live', 'stalled', 'did-not-launch', 'completed', 'timeout'].filter(isPendingLivenessVerdict)).toEqual(['live', 'stalled', 'did-not-launch']);
  });

  it('builds dispatch kinds', () => {
    expect(reverifyDispatchKind(2)).toBe('reverify-r2');
    expect(retryDispatchKind('initial')).toBe('initial-retry');
    expect(retryDispatchKind(reverifyDispatchKind(3))).toBe('reverify-r3-retry');
  });
});
