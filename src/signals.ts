/**
 * How the server reads termination signals. One Ctrl-C reaches it several
 * times: from the terminal (which signals the whole foreground process group)
 * and again through npm and `npm start`, which pass signals on. So every signal
 * within `burstMs` of the first is the same request to shut down; only one
 * sent after that burst means "stop now, without the protocol".
 */
export type SignalAction = 'shut down' | 'ignore' | 'exit now';

export function signalReader(burstMs: number, clock: () => number = Date.now): () => SignalAction {
  let firstAt: number | null = null;
  return () => {
    const now = clock();
    if (firstAt === null) {
      firstAt = now;
      return 'shut down';
    }
    return now - firstAt < burstMs ? 'ignore' : 'exit now';
  };
}
