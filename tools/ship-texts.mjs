#!/usr/bin/env node
// Run by apps/okstra's build, from its folder, after the bundle: the umbrella package ships the texts a lead
// and its workers read and the examples they point to (docs/install.md "What the package ships"):
//   dist/texts/prompts, dist/texts/skills   what `okstra install` copies to where each host loads them
//   dist/examples/README.md, dist/examples/sample-project   what `okstra sample` writes and its walkthrough
// Each is replaced whole, so a text removed from the repository is not shipped from an older build.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const app = process.cwd();
const repoRoot = join(app, '..', '..');
const dist = join(app, 'dist');
const copies = [
  ['prompts', join('texts', 'prompts')],
  ['skills', join('texts', 'skills')],
  ['examples', 'examples'],
];
rmSync(join(dist, 'sample-project'), { recursive: true, force: true }); // where an older build put the sample
for (const [from, to] of copies) {
  rmSync(join(dist, to), { recursive: true, force: true });
  cpSync(join(repoRoot, from), join(dist, to), { recursive: true });
}
