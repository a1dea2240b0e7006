/**
 * The everyday-scenario suite (test/fixtures/everyday/scenarios.json): small stores, paraphrased questions, questions
 * nothing answers.
 */
import { readFileSync } from 'node:fs';

export interface EverydayMemory {
  key: string;
  content: string;
  tags?: string[];
  people?: string[];
  minutesAgo?: number;
}
export interface EverydayQuestion {
  q: string;
  answer: string | null;
}
export interface Scenario {
  name: string;
  split: 'dev' | 'heldout';
  memories: EverydayMemory[];
  questions: EverydayQuestion[];
}

export const EVERYDAY_FILE = new URL('../test/fixtures/everyday/scenarios.json', import.meta.url).pathname;

export function loadScenarios(file = EVERYDAY_FILE): Scenario[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { scenarios: Scenario[] }).scenarios;
}
