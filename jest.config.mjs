// Jest runs in ESM mode (Nest 12 is ESM-only) with @swc/jest keeping decorator metadata.
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  },
];

const shared = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: {
    '^@talon/([a-z0-9-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@talon/([a-z0-9-]+)/internal$': '<rootDir>/libs/$1/src/internal.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

export default {
  // Integration suites start real processes on a 2-core machine; unit tests finish far below this.
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs}/*/src/**/*.test.ts', '<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs}/*/test/**/*.int.test.ts', '<rootDir>/test/**/*.int.test.ts'],
    },
  ],
};
