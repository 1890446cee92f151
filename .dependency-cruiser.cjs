/**
 * The import rules `npm run test:unit` checks (tests/repo/dependencies.test.ts):
 * no import cycles anywhere (type imports count: a cycle of types is still a knot a reader must
 * untie), and machines/ (rules shared by browser and server) imports nothing from server/ or client/.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles hide which module is the lower layer; break them by moving the shared part down.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'machines-stand-alone',
      severity: 'error',
      comment: 'machines/ is shared by browser and server: it may not import from server/ or client/.',
      from: { path: '^machines/' },
      to: { path: '^(server|client)/' },
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(node_modules|dist)/', '[.]tsx$'] },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
