/**
 * The import rules of the source, checked by `npm run lint` (dependency-cruiser): no cycle anywhere, and each
 * floor imports only the floors below it. Layers, bottom up: shared/domain (the kernel beside its areas, then
 * the areas), shared/observability and the adapters, shared/http, shared/local and shared/container, then
 * functions/ and lib/ (the local runtime, which runs the functions' handlers as Lambda does, imports them).
 * Type-only imports count: a type names the module it comes from as much as a value does. The areas of the
 * domain are checked for cycles between them in .dependency-cruiser.domain-areas.cjs; that the domain imports
 * no package is ESLint's (eslint.config.js), which sees packages this run leaves out.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module never imports one that imports it back, directly or through others.',
      from: { path: '^(shared|functions|lib|web/src)/' },
      to: { circular: true },
    },
    {
      name: 'domain-imports-nothing-above',
      severity: 'error',
      comment: 'shared/domain imports no adapter, container, HTTP, local runtime, queue or observability code, no function and no infrastructure.',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/(adapters|container|http|local|queue|observability)/|functions/|lib/|bin/)' },
    },
    {
      name: 'domain-kernel-imports-no-area',
      severity: 'error',
      comment: 'The kernel beside the areas (shared/domain/*.ts: clock, errors, pagination, ...) imports none of them.',
      from: { path: '^shared/domain/[^/]+$' },
      to: { path: '^shared/domain/[^/]+/' },
    },
    {
      name: 'domain-ocr-and-labels-below-documents',
      severity: 'error',
      comment: 'documents uses ocr and labels, never the other way round.',
      from: { path: '^shared/domain/(ocr|labels)/' },
      to: { path: '^shared/domain/documents/' },
    },
    {
      name: 'domain-derived-views-on-top',
      severity: 'error',
      comment: 'No area imports the views derived from the change stream (search, events); events may read search.',
      from: { path: '^shared/domain/[^/]+/', pathNot: '^shared/domain/(events|search)/' },
      to: { path: '^shared/domain/(search|events)/' },
    },
    {
      name: 'domain-search-imports-no-events',
      severity: 'error',
      comment: 'search is derived from the change stream as events is; it imports none of events.',
      from: { path: '^shared/domain/search/' },
      to: { path: '^shared/domain/events/' },
    },
    {
      name: 'adapters-import-no-wiring',
      severity: 'error',
      comment: 'Adapters hold plumbing: they import no composition (shared/container), local runtime, function or infrastructure code.',
      from: { path: '^shared/adapters/' },
      to: { path: '^(shared/(container|local)/|functions/|lib/|bin/)' },
    },
    {
      name: 'observability-below-adapters',
      severity: 'error',
      comment: 'The logger, log context and logged metrics are below the adapters: the Lambda entry hands them what they write through.',
      from: { path: '^shared/observability/' },
      to: { path: '^(shared/(adapters|container|http|local|queue)/|functions/|lib/|bin/)' },
    },
    {
      name: 'shared-imports-no-functions',
      severity: 'error',
      comment: 'shared/ is below the functions and the infrastructure that deploys them.',
      from: { path: '^shared/', pathNot: '^shared/local/' },
      to: { path: '^(functions|lib|bin)/' },
    },
    {
      name: 'local-runtime-imports-no-infrastructure',
      severity: 'error',
      comment: "The local runtime runs the functions' handlers as Lambda would, so it imports them; never the CDK code or the scripts.",
      from: { path: '^shared/local/' },
      to: { path: '^(lib|bin)/' },
    },
    {
      name: 'source-imports-no-tests',
      severity: 'error',
      comment: 'Nothing that ships imports test code.',
      from: { path: '^(shared|functions|lib|bin|web/src)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'Every relative import names a module that exists.',
      from: {},
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|cdk\\.out|dist|\\.data|coverage|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts', '.json'] },
    skipAnalysisNotInRules: true,
  },
};
