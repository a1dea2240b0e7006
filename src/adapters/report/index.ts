export { readStoreReport, reportHtml } from './report.js';
export type { StoreReportData } from './report.js';
