// Waiting and logging, shared by the processes, the load and the runs.

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const log = (line: string) => console.log(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}`);

export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} did not come back within ${timeoutMs / 1000} s`);
    await sleep(200);
  }
  return Date.now() - started;
}
