import type { RuleCheck } from './lint/types.js';
import type { Example } from './styleguides.records.js';

/** Inputs of the rule and term writes, as the routes' schemas give them. */
export interface Located {
  styleguideId: string;
  developerId?: string;
}

export interface NewRuleInput extends Located {
  sectionId: string;
  name: string;
  description?: string;
  examples?: Example[];
  check?: RuleCheck | null;
}

export interface RuleUpdate extends Located {
  developerId: string;
  sectionId?: string;
  name?: string;
  description?: string;
  examples?: Example[];
  check?: RuleCheck | null;
}

export interface NewTermInput extends Located {
  sectionId: string;
  preferred: string;
  replaces?: string[];
  caseSensitive?: boolean;
  note?: string;
}

export interface TermUpdate extends Located {
  developerId: string;
  sectionId?: string;
  preferred?: string;
  replaces?: string[];
  caseSensitive?: boolean;
  note?: string;
}

export interface EntryRef {
  styleguideId: string;
  developerId: string;
}
