import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killServer, privateSocket, tmux as tmuxSync } from '../test-support/index.js';
import { fmt, Tmux, tmuxArgv, tmuxTextProblem } from './tmux.js';

const socket = privateSocket();
const dir = mkdtempSync(join(tmpdir(), 'okstra-tmux-escape-'));
const marker = join(dir, 'marker');
// one session for the whole file, so the server never exits between tests
beforeAll(() => void tmuxSync(socket, ['new-session', '-d', '-s', 'keep', '--', 'sleep', '600']));
afterAll(() => {
  killServer(socket);
  rmSync(dir, { recursive: true, force: true });
});

/** Strings that tmux would expand, run, split or cut if passed raw. */
const PAYLOADS = [
  `Codex worker #(touch ${marker})`,
  `#{pane_id} #{session_name} #{?pane_dead,dead,alive}`,
  `##(touch ${marker}) ##{pane_id}`,
  `ends with a separator;`,
  `;`,
  `a \\; b\\;`,
  `quotes ' and " and \\`,
  `$(touch ${marker}) and \`touch ${marker}\``,
  `{ braces } and %1 and ~`,
];

describe('backends/tmux.ts: the one escaping home (real tmux on a private socket)', () => {
  const t = new Tmux({ ...process.env, OKSTRA_TMUX_SOCKET: socket });

  it.each(PAYLOADS)('20 times %j as pane title, user option, window name and session name: read back exactly, nothing runs', async (payload) => {
    tmuxSync(socket, ['new-session', '-d', '-s', 'base', '-x', '80', '-y', '24', '--', 'sleep', '600']);
    const pane = tmuxSync(socket, ['display-message', '-p', '-t', '=base:', '#{pane_id}']).stdout.trim();
    for (let i = 0; i < 20; i++) {
      const r = await t.run(
        ['select-pane', '-t', pane, '-T', payload],
        ['set-option', '-p', '-t', pane, '@okstra-probe', payload],
        ['new-window', '-d', '-t', '=base:', '-n', payload, '-P', '-F', fmt('#{window_id}'), '--', 'sleep', '600'],
      );
      expect(r.stderr).toBe('');
      const windowId = r.stdout.trim();
      const back = tmuxSync(socket, ['display-message', '-p', '-t', pane, '#{pane_title}\t#{@okstra-probe}']).stdout.replace(/\n$/, '');
      expect(back).toBe(`${payload}\t${payload}`);
      expect(tmuxSync(socket, ['display-message', '-p', '-t', windowId, '#{window_name}']).stdout.replace(/\n$/, '')).toBe(payload);
      tmuxSync(socket, ['kill-window', '-t', windowId]);
    }
    const s = await t.run(['new-session', '-d', '-s', payload, '-P', '-F', fmt('#{session_id}'), '--', 'sleep', '600']);
    const sessionId = s.stdout.trim();
    // tmux itself makes a session name printable ('.', ':' → '_', '\\' → '\\\\'); okstra's are hashes anyway
    const sessionName = payload.replace(/[.:]/g, '_').replace(/\\/g, '\\\\');
    expect(tmuxSync(socket, ['display-message', '-p', '-t', sessionId, '#{session_name}']).stdout.replace(/\n$/, '')).toBe(sessionName);
    tmuxSync(socket, ['kill-session', '-t', sessionId]);
    // #(…) runs asynchronously: give a would-be job time to finish before looking for its marker
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(marker)).toBe(false);
    tmuxSync(socket, ['kill-session', '-t', '=base']);
  });

  it('a word of the command argv is passed literally (no doubling), a trailing ; escaped', () => {
    expect(tmuxArgv(['new-window', '-n', 'a#b', '--', 'x#y', 'z;'])).toEqual(['new-window', '-n', 'a##b', '--', 'x#y', 'z\\;']);
    expect(tmuxArgv(['display-message', '-p', '-t', '%1', 'text #{x}'])).toEqual(['display-message', '-p', '-t', '%1', 'text ##{x}']);
    expect(tmuxArgv(['list-panes', '-F', '#{pane_id}'])).toEqual(['list-panes', '-F', '##{pane_id}']);
    expect(tmuxArgv(['list-panes', '-F', fmt('#{pane_id}')])).toEqual(['list-panes', '-F', '#{pane_id}']);
  });

  it('a style #[…] in a title stays inert (tmux keeps it as ##[…]); dispatch refuses it like control characters', async () => {
    tmuxSync(socket, ['new-session', '-d', '-s', 'style', '--', 'sleep', '600']);
    const pane = tmuxSync(socket, ['display-message', '-p', '-t', '=style:', '#{pane_id}']).stdout.trim();
    await t.run(['select-pane', '-t', pane, '-T', 'x #[fg=red] y']);
    expect(tmuxSync(socket, ['display-message', '-p', '-t', pane, '#{pane_title}']).stdout.trim()).toBe('x ##[fg=red] y');
    expect(tmuxTextProblem('x #[fg=red] y')).toMatch(/style/);
    tmuxSync(socket, ['kill-session', '-t', '=style']);
  });

  it('newlines and other control characters cannot be shown by tmux: named, for validation to refuse', () => {
    expect(tmuxTextProblem('a\nb')).toMatch(/control character/);
    expect(tmuxTextProblem('tab\there')).toMatch(/control character/);
    expect(tmuxTextProblem('Report writer worker')).toBeNull();
  });
});
