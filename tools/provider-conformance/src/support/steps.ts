// Scripted steps and process helpers the real-CLI suites share.
import { spawn } from 'node:child_process';
import type { Step } from './scripted-model.js';

/** A scripted tool call writing `text` to a new file `path` with the CLI's own tool: Claude Code's `Write`, codex's freeform `apply_patch`. */
export function writeFileStep(provider: 'claude' | 'codex', path: string, text: string): Step {
  if (provider === 'claude') return { tool: 'Write', input: { file_path: path, content: text } };
  const added = text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `+${l}`)
    .join('\n');
  return { tool: 'apply_patch', custom: true, input: { text: `*** Begin Patch\n*** Add File: ${path}\n${added}\n*** End Patch\n` } };
}

/** Run `node <args>` without blocking this process (a scripted model in it must keep answering), killed after `timeoutMs`. */
export function runNode(
  args: string[],
  o: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env: o.env, cwd: o.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
