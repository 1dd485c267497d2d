import { isUtf8 } from 'node:buffer';
import { basename } from 'node:path';
import { readRegularFileSync } from '@okstra/state-file';
import { promptPath, workerResultPath, joinPath as join } from '@okstra/paths';
import type { TeamStateRow } from '@okstra/schemas/team-state';
import { type Finding, type RunUnderAudit } from '../run-context.js';
import { isHeadingsOnly, isRawTranscript, shortNonAnswer } from './non-answer.js';
import { resolveRecorded } from './recorded-path.js';
import { outsideFences } from '../worker-audit/ledger.js';
import { docsOf } from '../facts/views.js';

/** An unrendered template placeholder: `{{NAME}}` / `{{ NAME }}` in capitals, outside a code span. */
const PLACEHOLDER = /\{\{\s*[A-Z][A-Z0-9_]*\s*\}\}/;
/** How an answer that never started begins: a plan to work, a spawn acknowledgement. */
const PREAMBLE =
  /^(?:I['’]ll\b|I will\b|I am going to\b|I['’]m going to\b|Let me\b|Okay[,.]|OK[,.]|Sure[,.]|Starting\b|Spawned\b|Launching\b|Working on\b|Dispatched\b)/i;
/**
 * A preamble's words used as a finding's opener: a short clause, a colon, then the answer ("Let me be clear: F-001 is
 * refuted …", "I will note one cause only: the timeout …"); a preamble announces work and stops ("I'll start by reading …").
 */
const OPENER_THEN_ANSWER = /^[^.!?\n:]{1,60}:[ \t]*\S[^\n]{20,}/;
/** How a provider's error text begins (an API or CLI failure written where the answer belongs). */
const PROVIDER_ERROR =
  /^(?:API Error\b|Error:|error:|\{"type":"error"|Request failed\b|Traceback \(most recent call last\)|[Rr]ate limit(?!ing|ers?\b)|Usage limit|You['’]ve hit your (?:usage )?limit|Credit balance is too low|Invalid API key)/;
/**
 * An HTTP status a provider answered with, as its CLI prints it: the code (429, 5xx) then its reason phrase, a JSON
 * body, a colon or the end — never a finding that begins with a number ("500 ms is the timeout", "429 responses are
 * dropped", "HTTP 504 from the proxy …").
 */
const HTTP_STATUS =
  /^(?:HTTP(?:\/[\d.]+)? [45]\d\d|429|5\d\d)(?=\s*(?:$|[:{(\-–—])|\s+(?:[A-Z][a-z]+(?:[ -][A-Z][a-z]+)*|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out|overloaded)\b)/;
/** An answer this short that begins like a preamble or an error is that and nothing more. */
const SHORT = 600;

/**
 * Why `text` does not answer what was dispatched, or null when it may:
 * empty, blank, NUL bytes, an unrendered `{{…}}` template, a preamble or
 * spawn acknowledgement with no answer, an echo of the prompt, a provider's
 * error text, a refusal or a raw provider transcript (docs/run-audit.md invariant 21; non-answer.ts). Judged on the text only; a long
 * answer that merely mentions an error or a template is an answer. `bySignal`: the provider's end-of-turn signal says the
 * turn ended normally, so the short-text language rules (preamble, error text, refusal) do not apply — only the shape rules.
 */
export function answerProblem(text: string, prompt: string | null, bySignal = false): string | null {
  const body = text.replace(/^\uFEFF/, '');
  if (body.length === 0) return 'is empty';
  if (body.includes('\u0000')) return 'holds NUL bytes';
  const trimmed = body.trim();
  if (trimmed === '') return 'is blank';
  if (hasPlaceholder(body)) return 'holds an unrendered {{…}} template placeholder';
  if (prompt !== null && prompt.trim() !== '' && normalize(trimmed) === normalize(prompt)) return 'is an echo of its prompt';
  // A heartbeat log written where the answer belongs: nothing but `- PROGRESS:` lines.
  if (trimmed.split(/\r?\n/).every((l) => l.trim() === '' || /^- PROGRESS: /.test(l))) return 'holds only heartbeat lines, no answer';
  if (isRawTranscript(trimmed)) return 'is a raw provider transcript (stream-json lines), not an answer';
  // A cli-wrapper answer whose provider recorded how its turn ended is judged by that signal, not by its words.
  if (!bySignal && trimmed.length < SHORT && !/^#{1,6} |\n\s*[-*|] /m.test(trimmed)) {
    if (PROVIDER_ERROR.test(trimmed) || HTTP_STATUS.test(trimmed)) return "is a provider's error text, not an answer";
    if (PREAMBLE.test(trimmed) && !OPENER_THEN_ANSWER.test(trimmed)) return 'is a preamble with no answer';
    return shortNonAnswer(trimmed);
  }
  return null;
}

/** True when `text` holds a `{{NAME}}` placeholder outside code: fenced blocks, indented code blocks and code spans ({@link withoutCode}). */
export function hasPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text) && PLACEHOLDER.test(withoutCode(text));
}

/**
 * `text` without its code (CommonMark): fenced blocks (`outsideFences` of worker-audit/ledger.ts, the one fence reader of the
 * audit), indented blocks (four spaces or a tab after a blank line) and code spans. A worker quoting the template under
 * suspicion in any of them is answering.
 */
export function withoutCode(text: string): string {
  const kept: string[] = [];
  let blank = true;
  let indented = false;
  for (const line of outsideFences(text)) {
    const isBlank = line.trim() === '';
    indented = !isBlank && /^(?: {4}|\t)/.test(line) && (blank || indented);
    blank = isBlank;
    if (!indented) kept.push(line);
  }
  return kept.join('\n').replace(/`[^`\n]*`/g, '');
}

const normalize = (s: string) =>
  s
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .trim();

/** The row's result file (recorded, else layout) and prompt (recorded, else layout), absolute; null when outside the root. */
export function rowFiles(run: RunUnderAudit, row: TeamStateRow): { result: string | null; prompt: string | null } {
  const pick = (recorded: string | null | undefined, fallback: () => string) => (recorded ? resolveRecorded(run.projectRoot, recorded) : fallback());
  return {
    result: pick(row.resultPath, () => workerResultPath(run.runDir, row.workerId, run)),
    prompt: pick(row.promptPath, () => promptPath(run.runDir, row.workerId, run)),
  };
}

/**
 * Invariant 21 `answer-invalid` (seed 000 cmux.md: "A worker is finished when its dispatch
 * record reaches a terminal status and its required Result Paths exist"; 002 lead contract:
 * "a saved result file"): a file a row calls done answers what was dispatched —
 * each `completed` row's Markdown result ({@link answerProblem}; not headings only, not another
 * worker's result copied: two workers' answers of {@link COPY_MIN} characters or more are never the same text), its saved prompt not empty,
 * a `.json` result that parses; and every round response of the run (`-reverify-r<N>-`,
 * `-plan-verify-`) answers and names at least one id (`F-…`, `P-…`, `G-…`, …).
 */
export async function checkAnswers(run: RunUnderAudit): Promise<Finding[]> {
  const out: Finding[] = [];
  const state = run.teamStatePath ? [run.teamStatePath] : [];
  const seen = new Map<string, { workerId: string; file: string }>();
  for (const row of run.teamState?.workers ?? []) {
    const files = rowFiles(run, row);
    if (['completed', 'timeout', 'error'].includes(row.status) && files.prompt && run.files.exists(files.prompt)) {
      const prompt = await run.files.readText(files.prompt);
      const promptProblem =
        prompt === null
          ? null
          : prompt.replace(/^\uFEFF/, '').trim() === ''
            ? 'is empty'
            : hasPlaceholder(prompt)
              ? 'holds an unrendered {{…}} template placeholder'
              : null;
      if (promptProblem) {
        out.push({
          invariant: 'answer-invalid',
          message: `worker '${row.workerId}': its saved prompt ${basename(files.prompt)} ${promptProblem}`,
          evidence: [...state, files.prompt],
        });
      }
    }
    if (row.status !== 'completed' || !files.result || !run.files.exists(files.result)) continue;
    const text = await run.files.readText(files.result);
    if (text === null) continue;
    const turn = await endOfTurn(run, row.workerId);
    if (turn && turn.signal !== 'end-turn') {
      out.push({
        invariant: 'answer-invalid',
        message: `worker '${row.workerId}' is completed but its provider's turn ended ${TURN_ENDS[turn.signal] ?? `with '${turn.signal}'`}${turn.event ? ` (${turn.event})` : ''}: its result ${basename(files.result)} is no finished answer`,
        evidence: [...state, files.result, ...(turn.file ? [turn.file] : [])],
      });
      continue;
    }
    // Round responses (gap votes, reverify, plan-verify) answer the same dispatched ids in the collectors' fixed shape: two workers' votes may be word for word alike.
    const copyOf = files.result.endsWith('.json') || ROUND_RESPONSE.test(basename(files.result)) ? undefined : copied(seen, row.workerId, files.result, text);
    const problem = notUtf8(text, files.result)
      ? 'is not UTF-8 text'
      : files.result.endsWith('.json')
        ? jsonProblem(text)
        : (answerProblem(text, files.prompt && run.files.exists(files.prompt) ? await run.files.readText(files.prompt) : null, turn?.signal === 'end-turn') ??
          (isHeadingsOnly(text) ? 'holds only headings, no answer' : copyOf ? `is a copy of worker '${copyOf}''s result, not its own answer` : null));
    if (problem)
      out.push({
        invariant: 'answer-invalid',
        message: `worker '${row.workerId}' is completed but its result ${basename(files.result)} ${problem}`,
        evidence: [...state, files.result],
      });
  }
  const suffix = `-${run.taskType}-${run.seq}.md`;
  for (const name of run.files.list(join(run.runDir, 'worker-results'))) {
    if (!name.endsWith(suffix) || !/-(?:reverify-r[1-9][0-9]*|plan-verify)-/.test(name)) continue;
    const abs = join(run.runDir, 'worker-results', name);
    const text = await run.files.readText(abs);
    if (text === null) continue;
    const problem = answerProblem(text, null) ?? (/\b[A-Z][A-Za-z]*(?:-[A-Za-z0-9]+)*-\d+\b/.test(text) ? null : 'names none of the ids it was dispatched');
    if (problem) out.push({ invariant: 'answer-invalid', message: `round response ${name} ${problem}`, evidence: [abs] });
  }
  return out;
}

/** How a provider's end-of-turn signal reads in a message (docs/team.md "End of turn"). */
const TURN_ENDS: Record<string, string> = {
  'max-tokens': 'at the output limit (max-tokens)',
  'max-turns': 'at the turn limit (max-turns)',
  refusal: 'in a refusal',
  error: 'in an error',
  none: 'with no terminal event (killed, crashed or cut off)',
};

/**
 * The end-of-turn signal the row's current status sidecar records (`endOfTurn`, okstra-team exec; docs/team.md "End of
 * turn"), or null: a native session, a capture that reads no events, or a sidecar written before the field existed —
 * those answers keep the text rules.
 */
async function endOfTurn(run: RunUnderAudit, workerId: string): Promise<{ signal: string; event: string | null; file: string } | null> {
  const doc = (await docsOf(run, 'status-sidecar')).find((d) => d.key === workerId);
  const eot = (doc?.view as { endOfTurn?: { signal?: unknown; event?: unknown } | null } | undefined)?.endOfTurn;
  return eot && typeof eot.signal === 'string' ? { signal: eot.signal, event: typeof eot.event === 'string' ? eot.event : null, file: doc!.file } : null;
}

/** A round response's file name (`<w>-gap-vote-…`, `<w>-reverify-r<N>-…`, `<w>-plan-verify-…`, their repairs): a vote, never judged as a copied analysis. */
const ROUND_RESPONSE = /-(?:gap-vote|reverify-r[1-9][0-9]*|plan-verify)-/;

/** The shortest answer whose verbatim repeat by another worker counts as a copy (a one-line "no findings" may coincide). */
const COPY_MIN = 100;

/** The worker whose result `text` repeats (another worker, another file), or undefined; records `text` as `workerId`'s. */
function copied(seen: Map<string, { workerId: string; file: string }>, workerId: string, file: string, text: string): string | undefined {
  const key = normalize(text);
  if (key.length < COPY_MIN) return undefined;
  const first = seen.get(key);
  if (!first) seen.set(key, { workerId, file });
  return first && first.workerId !== workerId && first.file !== file ? first.workerId : undefined;
}

/**
 * True when the file behind `text` is not UTF-8 (a Latin-1 or UTF-16 answer): every okstra reader decodes strictly
 * (docs/conventions.md "Input files"), so a collector would refuse it. The bytes are re-read only when the lossy
 * decode already shows a replacement character.
 */
function notUtf8(text: string, abs: string): boolean {
  if (!text.includes('\uFFFD')) return false;
  try {
    const bytes = readRegularFileSync(abs);
    return !!bytes && !isUtf8(bytes);
  } catch {
    return false;
  }
}

function jsonProblem(text: string): string | null {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (t === '') return 'is empty';
  try {
    const v = JSON.parse(t) as unknown;
    return v && typeof v === 'object' && Object.keys(v).length > 0 ? null : 'holds no data';
  } catch {
    return 'is not valid JSON';
  }
}
