// The non-answer tests of invariant 21 (docs/run-audit.md) against their legal neighbours:
// each refusal, transcript and template has a twin that is an answer and must stay one.
import { describe, expect, it } from 'vitest';
import { isHeadingsOnly, isRawTranscript, shortNonAnswer } from './non-answer.js';

describe('shortNonAnswer', () => {
  it.each([
    "I'm sorry, but I can't help with that request.",
    'I was unable to complete the analysis in the time given.',
    '죄송합니다. 요청하신 작업을 수행할 수 없습니다.',
    '요청하신 분석을 완료할 수 없습니다.',
    '申し訳ありませんが、このタスクを完了できません。',
    'このタスクを完了できません。',
    '분석을 완료할 수 없었습니다.',
    '抱歉，我无法完成这个任务。',
    'Lo siento, no pude completar el análisis.',
    'Claude AI usage limit reached|1767225600',
    'ERROR: stream disconnected before completion',
  ])('refuses %j', (text) => expect(shortNonAnswer(text)).not.toBeNull());

  it.each([
    'I could not verify the race: the lock in queue.ts:88 is taken before the status read, so F-001 is refuted.',
    'I could not reproduce F-001; the retry loop in `retry.ts` re-reads the row.',
    'No findings: the refund path is correct as written.',
    'F-001은 재현되지 않았다. 로그에서 분석할 수 없는 항목은 제외했다.',
    '该请求无法完成回滚，因为结算 webhook 先提交了事务。',
    '환불 작업은 게이트웨이 타임아웃(30초) 안에 완료할 수 없습니다. 부하 시 게이트웨이 응답이 45초까지 걸리기 때문입니다.',
    '返金処理はゲートウェイのタイムアウト(30秒)以内に完了できません。負荷時にはゲートウェイの応答に45秒かかるためです。',
    'The handler reports "I cannot complete the refund" to the user when the lock times out; that message is the bug.',
  ])('takes %j as an answer', (text) => expect(shortNonAnswer(text)).toBeNull());
});

describe('isRawTranscript', () => {
  it('is two or more stream events of a provider', () => {
    expect(isRawTranscript('{"type":"system","subtype":"init"}\n{"type":"assistant","message":{}}\n{"type":"result","result":"x"}')).toBe(true);
    expect(isRawTranscript('{"type":"thread.started"}\n{"type":"item.completed","item":{}}')).toBe(true);
  });
  it('is never one JSON object, nor lines of another kind', () => {
    expect(isRawTranscript('{"type":"analysis","findings":[{"id":"F-001"}]}')).toBe(false);
    expect(isRawTranscript('{"type":"finding","id":"F-001"}\n{"type":"finding","id":"F-002"}')).toBe(false);
    expect(isRawTranscript('{\n  "type": "assistant"\n}')).toBe(false);
  });
});

describe('isHeadingsOnly', () => {
  it('is a template left unfilled', () => {
    expect(isHeadingsOnly('# Findings\n\n## Evidence\n\n## Conclusion\n')).toBe(true);
    expect(isHeadingsOnly('\uFEFF# 발견 사항\r\n## 근거\r\n')).toBe(true);
  });
  it('is not an answer written as headings, nor a text with a body', () => {
    expect(isHeadingsOnly('# Findings\n## F-001 refund races the settlement webhook\n')).toBe(false);
    expect(isHeadingsOnly('# Verdict: the refund path holds; the timeout compares seconds with milliseconds\n')).toBe(false);
    expect(isHeadingsOnly('# Findings\nNone.\n')).toBe(false);
  });
});
