import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './corpus.js';

/**
 * The repository is self-contained (issue 16): no tracked file cites a design
 * page that lives outside it, nor a path out of the checkout. The contracts
 * such references pointed at live in docs/contracts.md. The patterns are
 * assembled from pieces so this file does not match itself.
 */
const FORBIDDEN: { name: string; re: RegExp }[] = [
  { name: 'an external design page', re: new RegExp(['ARCHITECTURE', '\\.md'].join(''), 'i') },
  { name: 'an external design page', re: new RegExp(['STYLE', '\\.md'].join('')) },
  { name: 'a path outside the repository', re: new RegExp(['\\.\\./', '(shared|seeds)\\b'].join('')) },
  { name: 'a path outside the repository', re: new RegExp(['/work/', '(shared|main|wt)\\b'].join('')) },
];

/** Tracked files, minus installed or built output. */
function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' });
  return out.split('\0').filter((f) => f !== '' && !/(^|\/)(node_modules|dist)\//.test(f));
}

describe('self-contained repository', () => {
  it('no tracked file cites a design page or path outside the repository', () => {
    const hits: string[] = [];
    for (const file of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(join(REPO_ROOT, file), 'utf8');
      } catch {
        continue; // deleted in the work tree but still in the index
      }
      if (text.includes('\0')) continue; // binary
      text.split('\n').forEach((line, i) => {
        for (const { name, re } of FORBIDDEN) if (re.test(line)) hits.push(`${file}:${i + 1}: ${name}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });

  it('the contracts page the docstrings cite exists', () => {
    expect(readFileSync(join(REPO_ROOT, 'docs/contracts.md'), 'utf8')).toMatch(/^## 7\. /m);
  });
});
