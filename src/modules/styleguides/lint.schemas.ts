import { type Static, Type } from 'typebox';
import type { Limits } from '../../config.js';
import { DeveloperId, Nullable } from '../../http/schemas.js';

const FetchFilter = (what: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    description: `The \`filter\` of GET /${what}, as an object: selects the stored records to lint`,
  });

export const lintBody = (limits: Limits) =>
  Type.Object(
    {
      texts: Type.Optional(
        Type.Array(
          Type.Object(
            {
              text: Type.String({ maxLength: 50_000 }),
              variantId: Type.Optional(Nullable(DeveloperId)),
              id: Type.Optional(Type.String({ maxLength: 200, description: 'Echoed in the result' })),
              characterLimit: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
            },
            { additionalProperties: false },
          ),
          { minItems: 1, maxItems: limits.batchItems },
        ),
      ),
      filter: Type.Optional(
        Type.Object(
          { components: Type.Optional(FetchFilter('components')), textItems: Type.Optional(FetchFilter('textItems')) },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false, description: 'Either `texts` or `filter`' },
  );

/** POST /v2/styleguides/lint's body, and one of its texts. */
export type LintRequest = Static<ReturnType<typeof lintBody>>;
export type LintTextInput = NonNullable<LintRequest['texts']>[number];

/**
 * `['string', 'null']` rather than `anyOf`: the serializer checks each `anyOf` branch with a
 * validator for every value, and a lint answer has hundreds of thousands of these fields.
 */
const NullableString = (description?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...(description ? { description } : {}) });

const Finding = Type.Object({
  kind: Type.Enum(['rule', 'term', 'characterLimit']),
  styleguideId: NullableString(),
  sectionId: NullableString(),
  ruleId: NullableString(),
  termId: NullableString(),
  message: Type.String(),
  start: Type.Integer({ description: 'UTF-16 code unit offset where the finding starts' }),
  end: Type.Integer({ description: 'UTF-16 code unit offset just after the finding' }),
  suggestion: NullableString('Replaces text[start, end); null when there is none'),
});

export const LintResponse = Type.Array(
  Type.Object({
    id: NullableString(),
    source: Type.Enum(['text', 'component', 'textItem']),
    variantId: NullableString(),
    pluralForm: NullableString(),
    text: Type.String(),
    findings: Type.Array(Finding),
    truncated: Type.Boolean({
      description:
        'True when some findings of this text are not listed: at most LIMIT_LINT_FINDINGS_PER_TEXT per text (the first by position) and LIMIT_LINT_FINDINGS and LIMIT_LINT_FINDING_CHARS per request are answered; texts after the request cap are not checked',
    }),
  }),
);
