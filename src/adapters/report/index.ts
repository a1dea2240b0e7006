export { readStoreReport, reportHtml, chartSpecs, renderSvg, salienceBins } from './report.js';
export type { StoreReportData } from './report.js';
