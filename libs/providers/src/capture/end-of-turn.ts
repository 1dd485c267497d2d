import type { EndOfTurn, EndOfTurnSignal } from '@okstra/schemas/worker-usage';
import type { ClaudeResultEvent } from './claude.js';

/** The longest error text kept per event, and how many events are kept (the last ones). */
const MAX_ERROR_CHARS = 400;
const MAX_ERRORS = 10;

/** The provider's error events in order, each cut to {@link MAX_ERROR_CHARS}, the last {@link MAX_ERRORS} kept. */
export class ErrorEvents {
  private readonly kept: string[] = [];
  add(text: string): void {
    const one = text.replace(/\s+/g, ' ').trim();
    if (one === '') return;
    this.kept.push(one.length > MAX_ERROR_CHARS ? `${one.slice(0, MAX_ERROR_CHARS - 1)}…` : one);
    if (this.kept.length > MAX_ERRORS) this.kept.shift();
  }
  list(): string[] {
    return [...this.kept];
  }
}

/** Claude stop reasons that end a finished turn (the model stopped of its own accord). */
const FINISHED = new Set(['end_turn', 'stop_sequence', 'tool_use', 'pause_turn']);

/**
 * Claude Code's end-of-turn signal, read from its final `result` event
 * (docs/team.md "End of turn"): the subtype first (`error_max_turns` →
 * `max-turns`, any other error subtype or `is_error` → `error`), then on a
 * success the model's `stop_reason` (`max_tokens` → `max-tokens`, `refusal`
 * → `refusal`, a finished one or none → `end-turn`). No result event →
 * `none`.
 */
export function claudeEndOfTurn(result: ClaudeResultEvent | null): EndOfTurn {
  const errors = new ErrorEvents();
  if (!result) return { source: 'claude-stream-json', signal: 'none', event: null, stopReason: null, errors: [] };
  for (const e of result.errors ?? []) errors.add(e);
  const stop = result.stop_reason ?? null;
  let signal: EndOfTurnSignal;
  if (result.subtype === 'error_max_turns' || result.terminal_reason === 'max_turns') signal = 'max-turns';
  else if (result.subtype !== 'success' || result.is_error) signal = 'error';
  else if (stop === 'max_tokens') signal = 'max-tokens';
  else if (stop === 'refusal') signal = 'refusal';
  else if (stop === null || FINISHED.has(stop)) signal = 'end-turn';
  else signal = 'error';
  if (result.is_error && result.subtype === 'success' && result.result) errors.add(result.result);
  return {
    source: 'claude-stream-json',
    signal,
    event: `result/${result.subtype}`,
    stopReason: stop ?? result.terminal_reason ?? null,
    errors: errors.list(),
  };
}

/**
 * Codex's end-of-turn signal (docs/team.md "End of turn"): the last
 * turn-ending event of its `--json` stream — `turn.completed` → `end-turn`,
 * `turn.failed` → `error` — else `none`. Codex names no stop reason.
 */
export function codexEndOfTurn(ended: 'turn.completed' | 'turn.failed' | null, errors: string[]): EndOfTurn {
  const signal: EndOfTurnSignal = ended === 'turn.completed' ? 'end-turn' : ended === 'turn.failed' ? 'error' : 'none';
  return { source: 'codex-jsonl', signal, event: ended, stopReason: null, errors };
}
