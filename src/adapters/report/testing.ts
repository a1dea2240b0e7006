/** The report's binning, for tests only (production code may not import this file). */
export { salienceBins } from './report.js';
