// The rules `npm run lint` checks the import graph of src/ against (types included): no file
// imports itself through others, and no folder does. A cycle between folders means a feature
// doubles back on another, as http/ and routing/ once did; the fix is to move the shared piece
// down, not to break the rule.
module.exports = {
  forbidden: [
    {
      name: 'no-file-cycle',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+' },
      to: { path: '^src/[^/]+', circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
