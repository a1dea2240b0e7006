/** The guide's parts, for tests only (production code may not import this file). */
export { guideCommand } from './serve.js';
export { SLIDES, GUIDE_PATH, STYLE_PATH, slideQuery } from './guide.js';
