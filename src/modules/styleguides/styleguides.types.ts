/** The style guide records as the API answers them, for code outside the module (the workspace copy). */
export type {
  Example,
  RuleRecord,
  SectionRecord,
  StyleguideRecord,
  TermRecord,
} from './styleguides.records.js';
