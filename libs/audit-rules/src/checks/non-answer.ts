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
  /^(?:I['’]m sorry|I am sorry|Sorry[,.]|Apologies|Unfortunately,? I\b|I do(?: not|n['’]t) have (?:access|permission))/i,
  /^I (?:can(?:no|['’])t|could(?: ?not|n['’]t)|was(?: ?not|n['’]t) able to|am(?: not|n['’]t)? (?:un)?able to|was unable to) (?:help|assist|comply|complete|finish|perform|do|carry out|provide|access|verify|analy[sz]e)\b/i,
  /^죄송|(?:완료|수행|작성|분석|검증)(?:할 수 없|하지 못)/,
  /^(?:申し訳|すみません)|(?:完了|実行|対応|お手伝い)(?:でき|は出来)ません/,
  /^(?:抱歉|对不起|對不起|很抱歉)|(?:无法|無法|未能)(?:完成|执行|執行)/,
  /^(?:lo siento|disculp)|\bno (?:pude|he podido|puedo) (?:completar|terminar|realizar|ayudar)/i,
  /^es tut mir leid|\bkonnte\b[^.\n]{0,60}\bnicht (?:abschließen|durchführen|erledigen|fertigstellen|abschliessen)/i,
  /^(?:désolée?|je suis désolée?)|je n['’]ai pas pu (?:terminer|compléter|réaliser|effectuer)/i,
  /^(?:desculp|lamento)|não consegui (?:concluir|completar|terminar|realizar)/i,
];

/** A provider CLI's failure or status line written where the answer belongs (Claude Code, Codex, Gemini CLIs). */
const PROVIDER_STATUS =
  /^(?:Claude AI usage limit reached|Execution error|ERROR:|Timed out\b|Request timed out|\(no content\)|stream disconnected|Model (?:is )?overloaded|Overloaded\b|Internal server error|Prompt is too long|context length exceeded|Not logged in|Please run \/login|Session limit reached|Quota exceeded)/i;

/** Why a short text with no heading or list is not an answer, or null. */
export function shortNonAnswer(trimmed: string): string | null {
  if (PROVIDER_STATUS.test(trimmed)) return "is a provider's error text, not an answer";
  if (!/`[^`\n]+`/.test(trimmed) && REFUSAL.some((re) => re.test(trimmed))) return 'is a refusal, not an answer';
  return null;
}

/** True when every non-blank line is a JSON object with a string `type`: a provider's stream-json transcript, not the answer it was to write. */
export function isRawTranscript(trimmed: string): boolean {
  if (!trimmed.startsWith('{')) return false;
  return trimmed
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .every((l) => {
      try {
        const v = JSON.parse(l) as unknown;
        return !!v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string';
      } catch {
        return false;
      }
    });
}

/** True when the text holds headings and nothing else: a result template left unfilled (`# Findings` and no finding). */
export function isHeadingsOnly(text: string): boolean {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length > 0 && lines.every((l) => /^#{1,6}(?:\s|$)/.test(l));
}
