#!/usr/bin/env node
// `npm run bench`: runs every bench/*.bench.mjs (or those named on the command
// line) and prints one row per measurement: the value, its baseline measured
// in the same run, the ratio and the target ratio. Exit 0 always — benchmarks
// report, they do not gate (targets are checked by reading the table).
// A bench module exports `title` and `default async () => rows`, where a row
// is { name, ms, baselineName, baselineMs, target, unit } (target = max ratio;
// unit defaults to 'ms' — a memory row says 'MB' and puts its values in ms/baselineMs).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './lib.mjs';

const only = process.argv.slice(2);
const dir = join(repoRoot, 'bench');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs') && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort();
let over = 0;
for (const file of files) {
  const mod = await import(pathToFileURL(join(dir, file)).href);
  console.log(`\n## ${mod.title ?? file}`);
  const rows = await mod.default();
  const w = Math.max(...rows.map((r) => r.name.length), 10);
  for (const r of rows) {
    const ratio = r.ms / r.baselineMs;
    const verdict = r.target === undefined ? '' : ratio <= r.target ? `ok (target ≤ ${r.target}×)` : `OVER target ≤ ${r.target}×`;
    if (r.target !== undefined && ratio > r.target) over++;
    const unit = r.unit ?? 'ms';
    console.log(
      `${r.name.padEnd(w)}  ${r.ms.toFixed(1).padStart(9)} ${unit}  vs ${r.baselineName} ${r.baselineMs.toFixed(1)} ${unit}  = ${ratio.toFixed(2)}×  ${verdict}`,
    );
  }
}
console.log(`\n${over === 0 ? 'all measurements within target' : `${over} measurement(s) over target`}`);
