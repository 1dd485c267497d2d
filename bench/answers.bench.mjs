// Worker-answer readers (issue #25 item 5): parseAnswer of @okstra/verdict-blocks —
// the reading rule both collect-results and collect-verdicts run — on an answer whose
// Basis holds lists, quotes and fences, at 1, 4 and 8 MiB (the cap). Rows are time
// per MiB against the 1 MiB run of the same process: linear time keeps them near 1×
// (before: 47 s at 1 MiB, not done after 200 s at 8 MiB). In-process on the built lib.
// The same on a dense answer (bench/dense-answers.mjs: lists, quotes, fences, bold
// lines as headings, tables, long lines, many ids — no chunk can be skipped), one
// run per size, plus its 8 MiB time against the absolute budget of 8 s
// (the one row here whose baseline is a constant, as the issue states it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { denseAnswer } from './dense-answers.mjs';
import { median, repoRoot } from './lib.mjs';

export const title = 'answer readers: time per MiB at 1, 4 and 8 MiB (linear)';

const MIB = 1024 * 1024;
const RUNS = 3;
const OPTIONS = { idPattern: /[A-Z][A-Z0-9]*-[A-Za-z0-9]+/i, fieldLabels: ['verdict', 'basis', 'explanation', 'confidence'] };
const UNIT =
  '- re-read `src/queue.ts:88`: the lock is taken **first**\n  > quoted from the log: `lock acquired`\n\n```ts\nawait lock(row); // non-null\n```\n\n> a quote\n> of two lines\n\n1. step `one`\n2. step two\n\nA paragraph with [a link](https://x.test/d) and _emphasis_.\n\n';

function answer(bytes) {
  const head = '### F-001\n**Verdict**: REFUTED\n**Basis**: start\n\n';
  const tail = '\n### F-002\n**Verdict**: SURVIVES\n**Basis**: ok\n';
  return head + UNIT.repeat(Math.floor((bytes - head.length - tail.length) / UNIT.length)) + tail;
}

export default async function run() {
  const dist = join(repoRoot, 'libs/verdict-blocks/dist/index.js');
  if (!existsSync(dist)) throw new Error('build @okstra/verdict-blocks first (npx nx run verdict-blocks:build)');
  const { parseAnswer } = await import(pathToFileURL(dist).href);
  const perMib = (mib) => {
    const text = answer(mib * MIB);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      // A text of its own each run (trailing blank lines read the same): parseAnswer memoises by text,
      // so a repeat would time the memo's lookup, not the read.
      const own = text + '\n'.repeat(i + 1);
      const t = performance.now();
      parseAnswer(own, OPTIONS);
      times.push(performance.now() - t);
    }
    return median(times) / mib;
  };
  parseAnswer(answer(MIB / 8), OPTIONS); // warm up
  const one = perMib(1);
  const rows = [4, 8].map((mib) => ({
    name: `read ${mib} MiB, ms per MiB`,
    ms: perMib(mib),
    baselineName: 'read 1 MiB, ms per MiB',
    baselineMs: one,
    target: 1.25,
  }));
  const dense = (mib) => {
    const text = denseAnswer(mib * MIB);
    const t = performance.now();
    const read = parseAnswer(text, OPTIONS);
    const ms = performance.now() - t;
    if (read.blocks.map((b) => b.id).join() !== 'F-001,F-002') throw new Error(`the dense ${mib} MiB answer read as ${read.blocks.map((b) => b.id)}`);
    return ms;
  };
  const dense1 = dense(1);
  const dense4 = dense(4) / 4;
  const dense8 = dense(8);
  rows.push(
    { name: 'dense: read 1 MiB, ms per MiB', ms: dense1, baselineName: 'read 1 MiB (lists, quotes, fences)', baselineMs: one },
    { name: 'dense: read 4 MiB, ms per MiB', ms: dense4, baselineName: 'dense: read 1 MiB', baselineMs: dense1, target: 1.25 },
    { name: 'dense: read 8 MiB, ms per MiB', ms: dense8 / 8, baselineName: 'dense: read 1 MiB', baselineMs: dense1, target: 1.25 },
    { name: 'dense: read 8 MiB, total ms', ms: dense8, baselineName: 'budget 8 s (issue #25)', baselineMs: 8000, target: 1 },
  );
  return rows;
}
