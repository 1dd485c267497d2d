import { existsSync, readFileSync } from 'node:fs';
import { appendAll } from '@okstra/cli-kit';
import type { CaptureResult } from '@okstra/providers';
import { ANSWER_SHAPES, answerJsonSchema, answerRecordArtifact, type AnswerKind, type AnswerRecord } from '@okstra/schemas/answers';
import type { CaptureKind } from '@okstra/schemas/worker-usage';
import { writeArtifact, writeTextAtomic } from '@okstra/state-file';
import { renderAnswerMarkdown, resultDigest } from '@okstra/verdict-blocks';

/** A schema-bound job (docs/providers.md "Structured output"): the answer's kind and where its record goes. */
export interface StructuredJob {
  kind: AnswerKind;
  recordPath: string;
  workerId: string;
  dispatchKind: string;
  resultPath: string;
}

/** How long a quoted piece of a non-object answer may be in a problem. */
const QUOTE = 80;

/**
 * Before the provider starts: the answer's JSON Schema to `schemaPath` (codex
 * `--output-schema` reads it; claude gets it inline in its argv).
 */
export async function writeAnswerSchema(kind: AnswerKind, schemaPath: string): Promise<void> {
  await writeTextAtomic(schemaPath, `${JSON.stringify(answerJsonSchema(kind), null, 2)}\n`);
}

/**
 * After a schema-bound provider exited 0 (docs/team.md "exec", "Answer
 * objects"): take its answer object — claude's `structured_output`, codex's
 * final message parsed as JSON — and check it with the answer kind's zod shape
 * (libs/schemas `ANSWER_SHAPES`). A valid one becomes the result: the seeds'
 * Markdown written from it (over anything the worker wrote there itself —
 * its prose is not the answer; the `.log` keeps what it said), then the
 * record `{ status: read, answer, resultSha256 }`. A missing or invalid one
 * is recorded `refused` with its problems and the result is left as it is:
 * the collector refuses that worker and offers the repair. Written
 * atomically, the result before the record.
 * @returns the record written.
 */
export async function recordStructuredAnswer(o: {
  job: StructuredJob;
  startedAt: Date;
  captureKind: CaptureKind;
  capture: CaptureResult;
}): Promise<AnswerRecord> {
  const { job } = o;
  const source = o.captureKind === 'codex-jsonl' ? 'codex-last-message' : 'claude-structured-output';
  const taken = answerObjectOf(o.captureKind, o.capture);
  const problems: string[] = [];
  let answer: AnswerRecord['answer'] = null;
  if ('problem' in taken) problems.push(taken.problem);
  else {
    const parsed = ANSWER_SHAPES[job.kind].safeParse(taken.value);
    if (parsed.success) answer = parsed.data;
    else
      appendAll(
        problems,
        parsed.error.issues.slice(0, 10).map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`),
      );
  }
  let resultSha256: string | null = null;
  if (answer) {
    const markdown = renderAnswerMarkdown(job.kind, answer);
    await writeTextAtomic(job.resultPath, markdown);
    resultSha256 = resultDigest(markdown);
  } else if (existsSync(job.resultPath)) resultSha256 = resultDigest(readFileSync(job.resultPath, 'utf8'));
  const record: AnswerRecord = {
    schemaVersion: '1.0',
    kind: job.kind,
    workerId: job.workerId,
    dispatchKind: job.dispatchKind,
    startedAt: o.startedAt.toISOString(),
    source,
    status: answer ? 'read' : 'refused',
    answer,
    problems,
    resultSha256,
  };
  await writeArtifact(job.recordPath, answerRecordArtifact, record);
  return record;
}

/** The provider's answer object, or why there is none. */
function answerObjectOf(captureKind: CaptureKind, capture: CaptureResult): { value: unknown } | { problem: string } {
  if (captureKind === 'claude-stream-json') {
    if (capture.structuredOutput !== undefined) return { value: capture.structuredOutput };
    return { problem: 'the provider gave no answer object (its result event has no structured_output)' };
  }
  const text = capture.answer?.text.trim() ?? '';
  if (text === '') return { problem: 'the provider gave no answer object (its final message is empty or missing)' };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: `the provider's final message is not a JSON object: '${text.length > QUOTE ? `${text.slice(0, QUOTE)}…` : text}'` };
  }
}
