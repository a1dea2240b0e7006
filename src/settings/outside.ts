/**
 * Variables the service does not read, but `npm start`, the local servers' scripts (they run before `npm ci`,
 * without zod) and the `total-recall` command do: declared here so the README's one table lists them too.
 */
export interface OutsideVariable {
  readonly env: string;
  readonly shown: string;
  readonly unit?: string;
  readonly accepts?: string;
  readonly description: string;
}

export const OUTSIDE_VARIABLES: readonly OutsideVariable[] = [
  {
    env: 'NEO4J_BROWSER_URL',
    shown: 'unset',
    description: 'with `NEO4J_URI`: the Browser URL `npm start` prints for that server',
  },
  {
    env: 'TOTAL_RECALL_LOCAL_AUTH',
    shown: 'on',
    accepts: 'on or off',
    description:
      '`off`: the local Neo4j and Redis run without passwords (still on loopback only); see [Security](#security)',
  },
  {
    env: 'TOTAL_RECALL_NEO4J_HTTP_PORT',
    shown: '7474',
    description: 'HTTP (Browser) port of the local Neo4j',
  },
  {
    env: 'NEO4J_START_TIMEOUT',
    shown: '120',
    unit: 's',
    description: 'how long to wait for the local Neo4j to answer',
  },
  { env: 'REDIS_START_TIMEOUT', shown: '60', unit: 's', description: 'how long to wait for the local Redis to answer' },
  {
    env: 'NEO4J_SHUTDOWN_TIMEOUT',
    shown: '60',
    unit: 's',
    description: '`services:down` waits this long for a clean stop of Neo4j before it kills the server',
  },
  {
    env: 'REDIS_SHUTDOWN_TIMEOUT',
    shown: '30',
    unit: 's',
    description: '`services:down` waits this long for a clean stop of Redis before it kills the server',
  },
  {
    env: 'JAVA_HOME',
    shown: 'unset',
    description:
      'the Java 21/25 to run Neo4j with (else `java` on the PATH, else the newest under /usr/lib/jvm, e.g. Temurin 25)',
  },
  { env: 'KEEP_SERVICES', shown: 'unset', description: 'with `npm test`: leave the servers it started running' },
  {
    env: 'TOTAL_RECALL_URL',
    shown: 'http://127.0.0.1:4000',
    description: 'where the `total-recall` command and its stdio MCP bridge find the service',
  },
  {
    env: 'TOTAL_RECALL_STORE',
    shown: 'unset',
    description: "the `total-recall` command's store, overriding the store by directory",
  },
  {
    env: 'TOTAL_RECALL_TOKEN',
    shown: 'unset',
    description: "the token the command and the bridge send (else the checkout's `.data/operator.token`)",
  },
  {
    env: 'TOTAL_RECALL_INSTANCE_ID',
    shown: 'unset',
    description: 'the instance the command and the bridge name themselves as (`x-instance-id`)',
  },
];
