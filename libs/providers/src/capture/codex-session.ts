import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from '@okstra/schemas/zod';

/**
 * One `token_usage_record` line of a codex 0.171.0 session rollout
 * (`$CODEX_HOME/sessions/<yyyy>/<mm>/<dd>/rollout-<time>-<thread id>.jsonl`):
 * codex writes one per model response it received, naming the response.
 */
const TokenUsageRecord = z.looseObject({
  type: z.literal('token_usage_record'),
  payload: z.looseObject({ thread_id: z.string(), response_id: z.string() }),
});

/**
 * The codex CLI's own directory for a launch with environment `env`:
 * `CODEX_HOME`, else `$HOME/.codex`; null when neither is set.
 */
export function codexHomeOf(env: NodeJS.ProcessEnv): string | null {
  if (env.CODEX_HOME) return env.CODEX_HOME;
  return env.HOME ? join(env.HOME, '.codex') : null;
}

/**
 * How many model requests codex answered in thread `threadId` — the
 * distinct responses its session rollout under `codexHome` records
 * (`token_usage_record` lines; docs/providers.md "Usage": `turns`). The
 * `--json` stream cannot say: it has one `turn.completed` per exec turn
 * however many requests the turn made, and it may leave items out.
 * Day directories are searched newest first; lines that are not such a
 * record are skipped.
 * @returns the count, or null when no rollout of that thread is found or readable.
 */
export function codexModelRequests(codexHome: string, threadId: string): number | null {
  const file = findRollout(join(codexHome, 'sessions'), threadId);
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const responses = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"token_usage_record"')) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const record = TokenUsageRecord.safeParse(parsed);
    if (record.success && record.data.payload.thread_id === threadId) responses.add(record.data.payload.response_id);
  }
  return responses.size;
}

/** The session rollout of thread `threadId` under `codexHome` (the evidence recorder reads its `exec_command` calls); null when absent. */
export function codexRolloutPath(codexHome: string, threadId: string): string | null {
  return findRollout(join(codexHome, 'sessions'), threadId);
}

/** `<sessions>/<y>/<m>/<d>/rollout-*-<threadId>.jsonl`, newest day first; null when absent. */
function findRollout(sessions: string, threadId: string): string | null {
  const suffix = `-${threadId}.jsonl`;
  const walk = (dir: string, depth: number): string | null => {
    let names: string[];
    try {
      names = readdirSync(dir).sort().reverse();
    } catch {
      return null;
    }
    if (depth === 3) {
      const hit = names.find((n) => n.startsWith('rollout-') && n.endsWith(suffix));
      return hit ? join(dir, hit) : null;
    }
    for (const name of names) {
      const found = walk(join(dir, name), depth + 1);
      if (found) return found;
    }
    return null;
  };
  return walk(sessions, 0);
}
