// Test helper: replace an artifact by a special file (the fuzzer's FIFO / device / directory cases).
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '@okstra/audit-rules/test-support';

/** Replace `rel` (removed first) by a FIFO (`mkfifo`), a directory, or a symlink to `/dev/zero`. */
export function makeSpecial(p: Project, rel: string, kind: 'fifo' | 'dir' | 'zero'): void {
  const abs = join(p.root, rel);
  p.remove(rel);
  if (kind === 'dir') mkdirSync(abs);
  else if (kind === 'zero') symlinkSync('/dev/zero', abs);
  else if (spawnSync('mkfifo', [abs]).status !== 0) throw new Error(`mkfifo ${abs} failed`);
}
