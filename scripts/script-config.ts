// The configuration of a script run by hand (import, export): a bad setting is one line on stderr and exit 2
// (refused, as a bad argument is), not a stack trace.
import { loadConfig, type Config } from '../src/config.js';

export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    process.exit(2);
  }
}
