// The well-behaved client whose search latency the fuzzer must not ruin.
import { spawn } from 'node:child_process';

/**
 * The bystander, in a process of its own so that the fuzzer's own work (generating and sending) cannot delay its
 * clock: one search at a time by a reader token of its own store; each line it prints is "startEpochMs durationMs".
 */
const BYSTANDER = `
const [url, token] = process.argv.slice(1);
const queries = ['lisbon', 'porto coast', 'trip', 'memory about the coast'];
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();
for (let i = 0; !stop; i++) {
  const at = Date.now();
  const started = performance.now();
  const query = '{ search(input: { query: ' + JSON.stringify(queries[i % queries.length])
    + ', limit: 5 }) { hits { memory { id } } } }';
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  if (res.status !== 200 || JSON.parse(text).errors) {
    console.error('well-behaved client refused: ' + text.slice(0, 300));
    process.exit(3);
  }
  process.stdout.write(at + ' ' + (performance.now() - started) + '\\n');
}
`;

export interface Sample {
  readonly at: number;
  readonly ms: number;
}

export function startBystander(url: string, token: string): { samples: Sample[]; stop: () => Promise<void> } {
  const samples: Sample[] = [];
  const child = spawn(process.execPath, ['--input-type=module', '-e', BYSTANDER, url, token], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + String(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const [at, ms] = line.split(' ').map(Number);
      if (Number.isFinite(at) && Number.isFinite(ms)) samples.push({ at: at as number, ms: ms as number });
    }
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    samples,
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the well-behaved client stopped with exit code ${code}`);
    },
  };
}
