// @platformatic/kafka 1.x: the same calls as 2.x (platformatic.mjs), from its own package.
export { setup } from './platformatic.mjs';
