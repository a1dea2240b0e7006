/** The HTTP guards, scalars and admission, for tests only (production code may not import this file). */
export { Admission, neverQueued } from './admission.js';
export { formatError } from './errors.js';
export { boundedJson, parseIsoDateTime } from './scalars.js';
export { hostAllowed, originAllowed } from './http-guards.js';
export { limitedPorts } from './limited-ports.js';
