/**
 * A variant as other modules use it: `id` is the row id (what `text_variants` and style guide
 * scopes refer to), `developerId` the id the API names it by. The `variants` row stays in this
 * module (variants.repository.ts).
 */
export interface Variant {
  id: number;
  developerId: string;
  name: string;
  description: string;
  localeCode: string | null;
}
