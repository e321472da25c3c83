import { type Static, type TSchema, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { batchBody, DeveloperId, developerIdsBody, Nullable } from '../../http/schemas.js';
import { MAX_PATTERN_LENGTH } from './lint/regex-guard.js';
import { CHECK_TYPES } from './lint/types.js';

/** Request and response schemas of the style guide routes; batch sizes come from the configured limits. */

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ minLength: 1, maxLength: 10_000 });
const closed = { additionalProperties: false } as const;

export const SectionKind = Type.Enum(['rules', 'wordlist']);

export const SectionInput = Type.Object(
  {
    sectionId: DeveloperId,
    kind: SectionKind,
    name: Type.Optional(Name),
  },
  closed,
);

const Sections = Type.Array(SectionInput, {
  maxItems: 100,
  description:
    'The full list of sections, in order: each `sectionId` once, at least one `rules` and one `wordlist` section. Entries of a section that goes (or changes kind) move to the first remaining section of their kind.',
});

/** Developer ID of a variant with a locale code that the guide applies to; null for none. */
const VariantScope = Nullable(DeveloperId);

export const Check = Type.Object(
  {
    type: Type.Enum([...CHECK_TYPES]),
    limit: Type.Optional(Type.Integer({ minimum: 1, description: 'character_limit: the most characters allowed' })),
    pattern: Type.Optional(
      Type.String({ minLength: 1, maxLength: MAX_PATTERN_LENGTH, description: 'regex: the pattern' }),
    ),
    flags: Type.Optional(Type.String({ maxLength: 4, description: 'regex: any of i, m, s, u' })),
    replacement: Type.Optional(
      Type.String({ maxLength: 1000, description: 'regex: the suggestion; `$1`, `$<name>`, `$&` refer to the match' }),
    ),
    message: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1000, description: 'The finding message; required for regex' }),
    ),
  },
  { ...closed, description: 'A machine check. Regexes that could backtrack catastrophically are rejected.' },
);

export const Example = Type.Object(
  { before: Type.String({ maxLength: 10_000 }), after: Type.String({ maxLength: 10_000 }) },
  closed,
);
const Examples = Type.Array(Example, { maxItems: 100 });

export const Term = Type.String({ minLength: 1, maxLength: 200 });
const Replaces = Type.Array(Term, { maxItems: 100, description: 'The terms the preferred term replaces' });
const Note = Type.String({ maxLength: 10_000 });

export const StyleguideRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  enabledByDefault: Type.Boolean(),
  variantId: Nullable(Type.String()),
  sections: Type.Array(Type.Object({ sectionId: Type.String(), kind: SectionKind, name: Type.String() })),
  rules: Type.Array(
    Type.Object({
      id: Type.String(),
      sectionId: Type.String(),
      name: Type.String(),
      description: Type.String(),
      examples: Type.Array(Type.Object({ before: Type.String(), after: Type.String() })),
      check: Nullable(Check),
    }),
  ),
  terms: Type.Array(
    Type.Object({
      id: Type.String(),
      sectionId: Type.String(),
      preferred: Type.String(),
      replaces: Type.Array(Type.String()),
      caseSensitive: Type.Boolean(),
      note: Type.String(),
    }),
  ),
});

const Located = { styleguideId: DeveloperId };

const batch = <T extends TSchema>(element: T, limits: Limits) =>
  Type.Array(element, { minItems: 1, maxItems: limits.batchItems });

/** What a rule says besides its name and place, the same in a create and an update. */
const RuleContent = {
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  examples: Type.Optional(Examples),
  check: Type.Optional(Nullable(Check)),
};

export function styleguideSchemas(limits: Limits) {
  const CreateBody = batchBody(
    'styleguides',
    {
      name: Name,
      developerId: Type.Optional(DeveloperId),
      description: Type.Optional(Type.String({ maxLength: 10_000 })),
      enabledByDefault: Type.Optional(Type.Boolean()),
      variantId: Type.Optional(VariantScope),
      sections: Type.Optional(Sections),
    },
    limits.batchItems,
  );

  const UpdateBody = Type.Object(
    {
      developerId: DeveloperId,
      name: Type.Optional(Name),
      description: Type.Optional(Description),
      enabledByDefault: Type.Optional(Type.Boolean({ description: 'Enabled by default for all projects' })),
      variantId: Type.Optional(VariantScope),
      sections: Type.Optional(Sections),
    },
    closed,
  );

  const CreateRulesBody = batchBody(
    'rules',
    { ...Located, sectionId: DeveloperId, developerId: Type.Optional(DeveloperId), name: Name, ...RuleContent },
    limits.batchItems,
  );

  const UpdateRulesBody = batchBody(
    'updates',
    {
      ...Located,
      developerId: DeveloperId,
      sectionId: Type.Optional(DeveloperId),
      name: Type.Optional(Name),
      ...RuleContent,
    },
    limits.batchItems,
  );

  const CreateTermsBody = batchBody(
    'terms',
    {
      ...Located,
      sectionId: DeveloperId,
      developerId: Type.Optional(DeveloperId),
      preferred: Term,
      replaces: Type.Optional(Replaces),
      caseSensitive: Type.Optional(Type.Boolean({ description: 'Default false' })),
      note: Type.Optional(Note),
    },
    limits.batchItems,
  );

  const UpdateTermsBody = batchBody(
    'updates',
    {
      ...Located,
      developerId: DeveloperId,
      sectionId: Type.Optional(DeveloperId),
      preferred: Type.Optional(Term),
      replaces: Type.Optional(Replaces),
      caseSensitive: Type.Optional(Type.Boolean()),
      note: Type.Optional(Note),
    },
    limits.batchItems,
  );

  // Entry developer IDs are unique within their guide only, so a DELETE names the guide too.
  const EntryRefs = batch(Type.Object({ ...Located, developerId: DeveloperId }, closed), limits);

  return {
    CreateBody,
    UpdateBody,
    DeleteBody: developerIdsBody(limits.batchItems),
    CreateRulesBody,
    UpdateRulesBody,
    DeleteRulesBody: Type.Object({ rules: EntryRefs }, closed),
    CreateTermsBody,
    UpdateTermsBody,
    DeleteTermsBody: Type.Object({ terms: EntryRefs }, closed),
  };
}

type Schemas = ReturnType<typeof styleguideSchemas>;
export type SectionKind = Static<typeof SectionKind>;
export type SectionInput = Static<typeof SectionInput>;
/** One guide of POST /v2/styleguides. */
export type NewStyleguideInput = Static<Schemas['CreateBody']>['styleguides'][number];
/** PATCH /v2/styleguides's body: one guide's changed fields. */
export type StyleguideUpdate = Static<Schemas['UpdateBody']>;
/** The elements of the rule and term writes: POST, PATCH and DELETE of /v2/styleguides/rules and /terms. */
export type NewRuleInput = Static<Schemas['CreateRulesBody']>['rules'][number];
export type RuleUpdate = Static<Schemas['UpdateRulesBody']>['updates'][number];
export type NewTermInput = Static<Schemas['CreateTermsBody']>['terms'][number];
export type TermUpdate = Static<Schemas['UpdateTermsBody']>['updates'][number];
export type EntryRef = Static<Schemas['DeleteRulesBody']>['rules'][number];
