/** The bodies of the deprecated v0 and v1 API that no v2 export gives: pure functions of the texts. */
export { flatBody } from './flat.js';
export {
  type FullComponentsBody,
  type FullHeader,
  type FullProjectBody,
  fullComponentsBody,
  fullProjectBody,
} from './full.js';
export { type NestedBody, nestedBody } from './nested.js';
export { type StructuredText, structuredBody, structuredText } from './structured.js';
export type { LegacyOptions, LegacyText } from './types.js';
export { describeVariable, structuredVariable } from './variables.js';
