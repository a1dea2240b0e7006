export { serveBrowserContent, guideCommand } from './serve.js';
export { SLIDES, GUIDE_PATH, STYLE_PATH, guideHtml, slideQuery, styleGrass, cypherString } from './guide.js';
export type { Slide } from './guide.js';
