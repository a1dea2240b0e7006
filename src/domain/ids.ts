import { randomBytes, randomUUID } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * Ids that sort by creation time as plain strings (used as the events cursor):
 * 11 base-36 chars of epoch ms, 4 of a per-process counter, 8 random.
 */
export function sortableId(prefix: string, now = Date.now()): string {
  if (now === lastMs) counter++;
  else {
    lastMs = now;
    counter = 0;
  }
  const time = now.toString(36).padStart(11, '0');
  const seq = (counter % 36 ** 4).toString(36).padStart(4, '0');
  return `${prefix}_${time}${seq}${randomBytes(5).toString('hex').slice(0, 8)}`;
}

export function newMemoryId(): string {
  return `mem_${randomUUID()}`;
}

export function newMessageId(): string {
  return sortableId('msg');
}
