/**
 * The name this process's BullMQ workers give themselves. BullMQ stores it on
 * every job they take (`processedBy`), so an operator (and the deployment
 * test) can tell which of several worker processes ran a job.
 */
import { hostname } from 'node:os';

export const workerName = (): string => `${hostname()}:${process.pid}`;
