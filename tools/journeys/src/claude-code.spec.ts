import { afterAll, describe, expect, it } from 'vitest';
import { hostLeadJourney } from './host-lead.js';
import { Lead } from './lead.js';
import { newProject, type JourneyProject, type JourneyWorker } from './project.js';

const projects: JourneyProject[] = [];
afterAll(() => projects.forEach((p) => p.cleanup()));

const WORKERS: JourneyWorker[] = [
  { id: 'claude', provider: 'claude', role: 'Claude worker', runner: 'native-session', model: 'claude-opus-4-1' },
  { id: 'codex', provider: 'codex', role: 'Codex worker', runner: 'cli-wrapper', model: 'gpt-5.5' },
  { id: 'grok', provider: 'grok', role: 'Coverage critic', runner: 'cli-wrapper', model: 'grok-4' },
  { id: 'report-writer', provider: 'claude', role: 'Report writer worker', runner: 'native-session', model: 'claude-sonnet-4-5' },
];

describe('journey: a Claude Code lead (prompts/lead/adapters/claude-code.md), mixed roster', () => {
  it('initial dispatch with a retry, reverify rounds with a stall, its retry and a repair, gap vote, native report writer: run-audit clean', () => {
    const p = newProject({ leadRuntime: 'claude-code', leadProvider: 'claude', terminalBackend: 'tmux-pane', taskType: 'error-analysis', workers: WORKERS });
    projects.push(p);
    const lead = new Lead(p, { JOURNEY_FAIL: 'codex:results/codex-error', JOURNEY_HEDGE: 'codex:reverify-r1' });
    try {
      hostLeadJourney(lead, 'prompts/lead/adapters/claude-code.md', WORKERS);
      // It went the hard way: codex's initial answer failed and was retried, a native reverify worker stalled
      // (recorded timeout, its findings retried next round), codex's refused reverify answer was repaired.
      const ran = lead.steps.map((s) => s.argv.join(' '));
      expect(ran.some((a) => a.includes('--dispatch-kind initial-retry'))).toBe(true);
      expect(ran.some((a) => a.includes('--status timeout'))).toBe(true);
      expect(ran.some((a) => /--dispatch-kind repair-reverify-r\d/.test(a))).toBe(true);
      expect(ran.some((a) => a.includes('--dispatch-kind gap-vote'))).toBe(true);
    } catch (error) {
      console.log(lead.steps.map((s) => `${s.code} ${s.source} okstra ${s.argv.join(' ')}`).join('\n'));
      throw error;
    }
  }, 240_000);
});
