export { readStoreReport, reportHtml, chartSpecs, renderSvg } from './report.js';
export type { StoreReportData } from './report.js';
