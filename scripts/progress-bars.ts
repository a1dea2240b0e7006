/**
 * Progress bars for the CLI scripts (cli-progress), drawn from a ProgressBoard:
 * one bar per operation, only when stdout is a terminal (a log or a pipe gets
 * the scripts' own summary lines and nothing else).
 */
import cliProgress from 'cli-progress';
import type { ProgressBoard, ProgressEntry } from '../src/domain/index.js';

export function showProgress(board: ProgressBoard, stream: NodeJS.WriteStream = process.stdout): () => void {
  if (!stream.isTTY) return () => undefined;
  const bars = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      format: (options, params, payload: { operation: string; unit: string; known: boolean }) => {
        const head = `${payload.operation.padEnd(13)} `;
        if (!payload.known) return `${head}${params.value} ${payload.unit}`;
        const bar = cliProgress.Format.BarFormat(params.progress, options);
        return `${head}${bar} ${Math.round(params.progress * 100)}% ${params.value}/${params.total} ${payload.unit}`;
      },
    },
    cliProgress.Presets.shades_classic,
  );
  const shown = new Map<string, cliProgress.SingleBar>();
  const draw = (e: ProgressEntry) => {
    const payload = {
      operation: e.store ? `${e.operation} ${e.store}` : e.operation,
      unit: e.unit,
      known: e.total !== null,
    };
    let bar = shown.get(e.id);
    if (!bar) {
      bar = bars.create(e.total ?? 0, e.done, payload);
      shown.set(e.id, bar);
    }
    if (e.total !== null) bar.setTotal(e.total);
    bar.update(e.done, payload);
  };
  const unsubscribe = board.subscribe(draw);
  return () => {
    unsubscribe();
    bars.stop();
  };
}
