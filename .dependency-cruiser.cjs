/**
 * Module boundaries, checked in CI (`npm run check:boundaries`). Each folder under src/modules/ owns
 * its tables and its internals; another module reaches it only through its public face: its
 * `index.ts`, its `*.service.ts` (the factory and the functions it exports) or its `*.types.ts`.
 * Repositories, routes, schemas and helpers of a module are its own business.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      comment:
        "A module imports another module only through its index.ts, *.service.ts or *.types.ts: never its repository, routes or helpers.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/(index|[^/]+\\.service|[^/]+\\.types)\\.ts$'],
      },
    },
    {
      name: 'outside-modules-through-public-face',
      comment:
        'The services wiring, the server, the CLI and the HTTP layer reach a module the way other modules do: through its index.ts, *.service.ts or *.types.ts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(modules/|app\\.ts$|cli/copy/validate\\.ts$)' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: '^src/modules/[^/]+/(index|[^/]+\\.service|[^/]+\\.types)\\.ts$',
      },
    },
    {
      name: 'copy-checks-against-the-api-schemas',
      comment:
        "workspace copy checks a source's records against the response schemas the routes declare (and the variables module's data rules), so it may read those; nothing else of a module.",
      severity: 'error',
      from: { path: '^src/cli/copy/validate\\.ts$' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot:
          '^src/modules/[^/]+/(index|[^/]+\\.service|[^/]+\\.types|[^/]+\\.schemas|[^/]+\\.routes|variable-data)\\.ts$',
      },
    },
    {
      name: 'app-takes-routes-and-public-faces',
      comment:
        'src/app.ts registers every route plugin (*.routes.ts), the one place that decides which routes need a key; otherwise it too reaches modules through their public face.',
      severity: 'error',
      from: { path: '^src/app\\.ts$' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: '^src/modules/[^/]+/(index|[^/]+\\.service|[^/]+\\.types|[^/]+\\.routes)\\.ts$',
      },
    },
    {
      name: 'text-rows-stay-in-texts',
      comment:
        'The rows of texts, text_variants and text_variables belong to the texts core: every other module works from its domain types (src/modules/texts/texts.types.ts), never a row.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(db|modules/texts)/' },
      to: { path: '^src/db/schema[.]texts[.]ts$' },
    },
    {
      name: 'shared-code-stays-below-modules',
      comment: 'db/, formats/, richtext/, shared/ and text/ are used by modules and never use them.',
      severity: 'error',
      from: { path: '^src/(db|formats|richtext|shared|text)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'http-only-types-from-modules',
      comment: 'The HTTP layer may name module types (Principal, WriteScope) but not call into modules.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/modules/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'formats-are-pure',
      comment: 'Exporters are pure functions of their input: no database, no HTTP.',
      severity: 'error',
      from: { path: '^src/formats/' },
      to: {
        path: '^src/(db|http|modules)/|^node_modules/(kysely|pg|better-sqlite3|fastify)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-circular',
      comment:
        'No cycles at all, type-only imports included: a type two files need goes into a file of its own (or the module that needs it declares it as an interface the other implements).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'texts-core-below-modules',
      comment:
        'The texts core imports no module but changes: what it needs of statuses, accounts, variants, variables, folders, projects and blocks it declares (src/modules/texts/texts.ports.ts) and src/services.ts hands over. The modules around it may import it.',
      severity: 'error',
      from: { path: '^src/modules/texts/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/(texts|changes)/' },
    },
    {
      name: 'row-types-stay-in-their-module',
      comment:
        "A table's row type (Selectable<...Table>) is declared in its owner's *.repository.ts (or *.rows.ts), which only that module imports; other modules and src/ get the owner's domain types (Variant, ProjectRef, ...). src/db/schema.ts declares tables, no row types.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/[^/]+[.](repository|rows)[.]ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'row-types-stay-in-their-module-outside',
      comment: 'The same for the code outside src/modules/: no module repository (and so no row type) either.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/[^/]+[.](repository|rows)[.]ts$' },
    },
    {
      name: 'dialect-stays-in-db',
      comment:
        'Which database a query runs on is src/db/ business: outside it, code calls the named helpers (src/db/query-plan.ts, search-index.ts, key-parts.ts, errors.ts#isUniqueViolation) and never dialectOf or DialectName.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/db/' },
      to: { path: '^src/db/dialect[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
