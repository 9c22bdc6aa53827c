/**
 * `npm run check:cycles` (part of `npm test`): no module may import itself through others, and the
 * folder boundaries the READMEs state that a stray import would quietly break are enforced here.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: cut it by moving the shared part into a module both may import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'files-imports-only-node',
      severity: 'error',
      comment:
        'src/files/ (atomic writes) is imported by the corpus store, the index cache, feeds and the PID file: it may import nothing of the project.',
      from: { path: '^src/files/' },
      to: { path: '^(src|commands)/', pathNot: '^src/files/' },
    },
    {
      name: 'search-knows-no-reloads-nor-discord',
      severity: 'error',
      comment:
        'src/search/ serves every front end: it knows nothing of reloads, corpus editing, Discord or the commands. What it shares with them lives in a folder both may import (src/corpus/, src/files/, src/text/).',
      from: { path: '^src/search/' },
      to: {
        path: '^(src/(lifecycle|corpus-editing|interactions|transports|feeds|community|import)/|commands/|node_modules/discord)',
      },
    },
    {
      name: 'followups-know-no-discord',
      severity: 'error',
      comment:
        'src/followups/ turns a follow-up and its earlier story into a search: it reads the types of src/corpus/ and names in src/text/, and knows nothing of Discord, commands or transports.',
      from: { path: '^src/followups/' },
      to: {
        path: '^(src/(lifecycle|corpus-editing|interactions|transports|feeds|community|import|chart|web|cli)/|commands/|node_modules/discord)',
      },
    },
    {
      name: 'digests-know-no-discord',
      severity: 'error',
      comment:
        "src/digests/ says when a digest is due and what goes in it: it reads src/search/'s word analysis and same-fact test and src/corpus/'s types, and knows nothing of Discord, the database, commands or transports (src/interactions/digests.ts sends them).",
      from: { path: '^src/digests/' },
      to: {
        path: '^(src/(lifecycle|corpus-editing|interactions|transports|feeds|community|import|chart|web|cli|answering|followups)/|commands/|node_modules/discord)',
      },
    },
    {
      name: 'charts-know-no-discord',
      severity: 'error',
      comment:
        "src/chart/ draws pictures of the product's data for every front end: it knows nothing of Discord, the commands or transports, and reads the search and community folders' types only. src/interactions/chart-attachment.ts attaches its charts to replies.",
      from: { path: '^src/chart/' },
      to: {
        path: '^(src/(lifecycle|corpus-editing|interactions|transports|feeds|import|web|cli)/|commands/|node_modules/discord)',
      },
    },
    {
      name: 'only-the-chart-worker-draws',
      severity: 'error',
      comment:
        'Chart.js and Skia load where charts are drawn (the chart worker, the CLI writing a file): the serving thread only hands charts to the worker (chart-renderer.ts).',
      from: { path: '^src/', pathNot: '^src/(chart/(draw-chart|chart-worker)|cli/ask)\\.ts$' },
      to: { path: '^(src/chart/draw-chart\\.ts$|node_modules/(chart\\.js|@napi-rs/canvas)/)' },
    },
    {
      name: 'renderers-only-render',
      severity: 'error',
      comment:
        "A renderer (src/interactions/render/, src/cli/render-*) renders what the answer pipeline (src/answering/) and the fact checks return: it reads the types of what it renders and never searches, ranks or checks itself. The swc parser does not tell `import type` from `import` (every dependency is 'import'), so this allows only the modules declaring those types, and test/architecture.test.ts checks that a renderer's imports of them are type-only.",
      from: { path: '^src/(interactions/render/|cli/render-)' },
      to: {
        path: '^src/(search|factcheck)/',
        pathNot:
          '^src/(search/(answer|period)|factcheck/(check-quote|correction|outlets-differ|verdict))\\.ts$',
      },
    },
    {
      name: 'answering-knows-no-front-end',
      severity: 'error',
      comment:
        'src/answering/ is the one pipeline from a question to its reply for every front end (Discord, the console, the HTTP endpoint, the CLI): it knows none of them, nor Discord.',
      from: { path: '^src/answering/' },
      to: {
        path: '^(src/(interactions|transports|cli|lifecycle|corpus-editing|feeds|import)/|commands/|node_modules/discord)',
      },
    },
    {
      name: 'core-never-imports-commands',
      severity: 'error',
      comment:
        'Commands build on the core; start-up (src/bootstrap.ts) and deploy-commands hand the list to whoever needs it.',
      from: { path: '^src/', pathNot: '^src/(bootstrap|deploy-commands)\\.ts$' },
      to: { path: '^commands/' },
    },
    {
      name: 'runtime-needs-no-dev-dependency',
      severity: 'error',
      comment:
        'Bots are deployed with `npm ci --omit=dev`: what src/ and commands/ import at run time must be in dependencies (types alone may come from devDependencies).',
      from: { path: '^(src|commands)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a cycle of types is still two modules that cannot change apart.
    tsPreCompilationDeps: true,
    // TypeScript 7 has no JavaScript compiler API for the tool to parse with; swc parses TypeScript.
    parser: 'swc',
  },
};
