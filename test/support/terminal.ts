import { execFileSync } from 'node:child_process';

/** A real terminal (a tmux session) running one command, for tests of interactive prompts. */
export interface Terminal {
  /** What the terminal shows now. */
  screen(): string;
  /** Resolves to the screen once it shows `text`; rejects with the screen after `timeout` ms. */
  waitFor(text: string | RegExp, timeout?: number): Promise<string>;
  /** Types keys: text, or tmux key names (`Enter`, `Down`, `Space`). */
  keys(...keys: string[]): void;
  close(): void;
}

export function openTerminal(name: string, cwd: string, command: string): Terminal {
  const session = `${name}-${process.pid}`;
  const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
  // the pause keeps the last screen readable after the command ends
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', '-c', cwd, `${command}; sleep 30`);
  const screen = () => tmux('capture-pane', '-p', '-t', session);
  return {
    screen,
    async waitFor(text, timeout = 30_000) {
      const started = Date.now();
      for (;;) {
        const shown = screen();
        if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
        if (Date.now() - started > timeout) throw new Error(`Timed out waiting for ${String(text)}; screen:\n${shown}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    keys: (...keys) => void tmux('send-keys', '-t', session, ...keys),
    close() {
      try {
        tmux('kill-session', '-t', session);
      } catch {
        // already ended
      }
    },
  };
}
