import type { EntryRef, NewRuleInput, NewTermInput, RuleUpdate, TermUpdate } from './styleguides.schemas.js';

/** Inputs of the rule and term writes: the routes' schemas give them (styleguides.schemas.ts). */
export type { EntryRef, NewRuleInput, NewTermInput, RuleUpdate, TermUpdate };

/** What every element of a rule or term write has: its guide, and maybe its own developer ID. */
export interface Located {
  styleguideId: string;
  developerId?: string;
}
