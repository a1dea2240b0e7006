/** Salience's maths, for tests only (production code may not import this file). */
export { salienceConfigProblems } from './config.js';
export { fold, scoreAt, halfLife } from './model.js';
export { decideTier } from './tier-decision.js';
export { nextUsefulness } from './usefulness.js';
