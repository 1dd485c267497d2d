/**
 * Texts that stand where an answer belongs but are not one (docs/run-audit.md invariant 21;
 * seed 000 cmux.md: completion needs "its required Result Paths", seed 002 lead contract:
 * "a saved result file"): a refusal in any of the languages a lead or provider writes, a
 * provider CLI's failure line, a raw provider transcript, a file of headings only. The
 * short-text tests ({@link shortNonAnswer}) apply only where {@link answerProblem} already
 * judged the text short and without a heading or list.
 */

/** A refusal or "I could not": how a worker that gave up words it, by language. A citation or code span in the text says it is an answer. */
const REFUSAL = [
  /^(?:I['’]m sorry|I am sorry|Sorry[,.]|Apologies|Unfortunately,? I (?:can(?:no|['’])t|could(?: ?not|n['’]t)|was(?: ?not|n['’]t)|am (?:not|unable)|do(?: not|n['’]t)|did(?: not|n['’]t))\b|I do(?: not|n['’]t) have (?:access|permission))/i,
  /^I (?:can(?:no|['’])t|could(?: ?not|n['’]t)|was(?: ?not|n['’]t) able to|am(?: not|n['’]t)? (?:un)?able to|was unable to) (?:help|assist|comply|complete|finish|perform|do|carry out|provide|access|verify|analy[sz]e)\b/i,
  /^죄송/,
  /^(?:申し訳|すみません)/,
  /^(?:抱歉|对不起|對不起|很抱歉)|我(?:无法|無法|未能)(?:完成|执行|執行)/,
  // The first-person forms open a clause (line start or after , ; : . !), never a quotation the finding cites.
  /^(?:lo siento|disculp)|(?:^|[,;:.!]\s*)no (?:pude|he podido|puedo) (?:completar|terminar|realizar|ayudar)/i,
  // German: the first person only — "Der Job konnte die Transaktion nicht abschließen" is a finding about the job.
  /^es tut mir leid|(?:\b(?:ich|wir)\b[^.\n]{0,30}\bkonnten?|\bkonnten? (?:ich|wir))\b[^.\n]{0,60}\bnicht (?:abschließen|durchführen|erledigen|fertigstellen|abschliessen)/i,
  /^(?:désolée?|je suis désolée?)|(?:^|[,;:.!]\s*)je n['’]ai pas pu (?:terminer|compléter|réaliser|effectuer)/i,
  /^(?:desculp|lamento)|(?:^|[,;:.!]\s*)não consegui (?:concluir|completar|terminar|realizar)/i,
];

/**
 * "(The task) cannot be completed" in Korean and Japanese, which name no subject: a refusal when its sentence says
 * nothing more, a finding when it carries a measure ("환불 작업은 게이트웨이 타임아웃(30초) 안에 완료할 수 없습니다":
 * the refund job cannot finish within the 30 s timeout), so a first sentence with a digit is not judged by these.
 */
const CANNOT_COMPLETE = [
  /(?:완료|수행|작성|분석|검증)(?:할 수 없(?:습니다|었습니다|어요|다)|하지 못(?:했습니다|했어요|했다))/,
  /(?:完了|実行|対応|お手伝い)(?:でき|は出来)ません/,
];

/**
 * A provider CLI's failure or status line written where the answer belongs (Claude Code, Codex, Gemini CLIs). The
 * status ends there or goes on as a status does (punctuation, a number, "after …", "please …"); a finding that opens
 * with the same words goes on naming its subject ("Timed out refunds are never retried", "Overloaded connection pool: …").
 */
const PROVIDER_STATUS =
  /^(?:ERROR:|(?:Claude AI usage limit reached|Execution error|Timed out\b|Request timed out|\(no content\)|stream disconnected|Model (?:is )?overloaded|Overloaded\b|Internal server error|Prompt is too long|context length exceeded|Not logged in|Please run \/login|Session limit reached|Quota exceeded)(?=\s*$|\s*[^\s\p{L}]|\s+(?:\d|after|while|waiting|before|for|please|try|retry|resets?|again|on|at|error|from (?:the )?(?:api|server|provider|model))\b))/iu;

/** Evidence a refusal never carries: a code span or a `file.ext:line` citation. */
const CITES = /`[^`\n]+`|[\w./-]+\.[A-Za-z]\w*:\d+/;

/**
 * Why a short text with no heading or list is not an answer, or null. A refusal is judged on
 * the first line only (a worker that gave up says so first; a finding may say later that
 * something "cannot complete"), and never in a text that cites evidence.
 */
export function shortNonAnswer(trimmed: string): string | null {
  if (PROVIDER_STATUS.test(trimmed)) return "is a provider's error text, not an answer";
  const first = trimmed.split(/\r?\n/, 1)[0]!;
  if (CITES.test(trimmed)) return null;
  if (REFUSAL.some((re) => re.test(first))) return 'is a refusal, not an answer';
  const sentence = first.split(/[.。!?！？]/, 1)[0]!;
  if (!/\d/.test(sentence) && CANNOT_COMPLETE.some((re) => re.test(sentence))) return 'is a refusal, not an answer';
  return null;
}

/** Event types of the providers' JSON-lines output (Claude Code `stream-json`, Codex `exec --json`). */
export const STREAM_TYPES = new Set([
  'system',
  'assistant',
  'user',
  'result',
  'stream_event',
  'thread.started',
  'turn.started',
  'turn.completed',
  'turn.failed',
  'item.started',
  'item.updated',
  'item.completed',
  'error',
]);

/**
 * True when the text is two or more lines, each a JSON object with a string `type`, and
 * some `type` is a provider's stream event: its transcript, not the answer it was to write.
 * One JSON object (a `.json` result) is never a transcript.
 */
export function isRawTranscript(trimmed: string): boolean {
  if (!trimmed.startsWith('{')) return false;
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length < 2) return false;
  let streamed = false;
  for (const l of lines) {
    try {
      const v = JSON.parse(l) as unknown;
      const type = v && typeof v === 'object' ? (v as { type?: unknown }).type : undefined;
      if (typeof type !== 'string') return false;
      streamed ||= STREAM_TYPES.has(type);
    } catch {
      return false;
    }
  }
  return streamed;
}

/** A heading that says nothing was found ("# No findings", "# 발견 사항 없음") is the answer, not a template's title. */
const SAYS_NONE = /\b(?:no|none|nothing)\b|없음|없습니다|なし|ありません|没有|无发现/i;

/**
 * True when the text holds headings and nothing else, none of which says anything: a result
 * template left unfilled (`# Findings`, `## Evidence` and no finding). A heading that names
 * an id (`## F-001 refund races the webhook`) or runs past six words is an answer written as
 * headings, not a template; so is one that says nothing was found (`# No findings`).
 */
export function isHeadingsOnly(text: string): boolean {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const empty = (l: string) => {
    const m = /^#{1,6}(?:\s+(.*))?$/.exec(l);
    if (!m) return false;
    const words = (m[1] ?? '').replace(/#+$/, '').trim();
    return !/\b[A-Z][A-Z0-9]*-\d+\b/.test(words) && !SAYS_NONE.test(words) && words.split(/\s+/).length <= 6;
  };
  return lines.length > 0 && lines.every(empty);
}
