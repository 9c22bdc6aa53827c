/**
 * `npm run check:cycles` (part of `npm test`): no module may import itself through others. An import
 * cycle makes load order decide behaviour and ties modules that should change apart.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a cycle of types is still two modules that cannot change apart.
    tsPreCompilationDeps: true,
    // TypeScript 7 has no JavaScript compiler API for the tool to parse with; swc parses TypeScript.
    parser: 'swc',
  },
};
