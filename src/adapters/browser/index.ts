export { serveBrowserContent } from './serve.js';
