import { type Static, Type } from 'typebox';

/** GET /v2/translationProgress's query: a project (or base), a folder, or neither (the workspace). */
export const ProgressQuery = Type.Object({
  projectId: Type.Optional(Type.String({ minLength: 1, description: 'Developer ID of a project or base' })),
  folderId: Type.Optional(
    Type.String({ minLength: 1, description: 'Developer ID of a component folder, or `root` for the library' }),
  ),
});

export type TranslationProgressQuery = Static<typeof ProgressQuery>;
