/**
 * Progress bars for long command-line work (import, export), drawn by
 * cli-progress on stdout and only when stdout is a terminal: piped or
 * redirected output stays clean.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total?: number): void;
  stop(): void;
}

const NONE: Progress = { update: () => undefined, stop: () => undefined };

/** A bar (with a total) or a counter (without one); nothing unless the stream is a TTY. */
export function progress(label: string, total: number | null, stream: NodeJS.WriteStream = process.stdout): Progress {
  if (stream.isTTY !== true) return NONE;
  const format = total === null ? `${label} {value} records` : `${label} [{bar}] {percentage}% {value}/{total} records`;
  const bar = new cliProgress.SingleBar(
    { format, stream, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total ?? 0, 0);
  return {
    update: (done, newTotal) => {
      if (newTotal !== undefined && newTotal !== total) bar.setTotal(newTotal);
      bar.update(done);
    },
    stop: () => bar.stop(),
  };
}
