import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The AWS SDK stays behind the adapters (and the local emulation of Lambda's event sources, which polls like Lambda does). */
const awsSdkOnlyInAdapters = {
  patterns: [
    { group: ['@aws-sdk/*'], message: 'Only shared/adapters/aws, shared/local/event-sources and the AWS composition roots talk to the AWS SDK.' },
  ],
};

/** zod/mini with English messages; classic zod would triple zod's share of every bundle. */
const zodThroughSharedZod = { regex: '^zod(/|$)', message: 'Import * as z from shared/zod.ts.' };

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', '.data', 'coverage', 'bench/results', 'test-results', 'client/src/openapi.d.ts', 'web/dist', 'web/node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // CommonJS configuration files (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // CloudFront Functions code: a plain script whose `handler` CloudFront calls (see lib/constructs/api-edge.ts).
    files: ['lib/edge/**/*.js'],
    // The settings api-edge.ts and api-docs-site.ts write in at synth time.
    languageOptions: {
      sourceType: 'script',
      globals: {
        __MAX_BODY_BYTES__: 'readonly',
        __PRESIGNED_UPLOAD_ROUTE__: 'readonly',
        __CORS_ORIGINS__: 'readonly',
        __VIEWER_ADDRESS_HEADER__: 'readonly',
        __API_DOCS_FILES__: 'readonly',
        __API_DOCS_ALIASES__: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^handler$' }] },
  },
  {
    files: ['**/*.ts'],
    ignores: ['shared/zod.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [zodThroughSharedZod] }] },
  },
  {
    files: ['shared/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\.|node:)', message: 'shared/domain imports no packages.' },
            { regex: '/(adapters|http|container|local|logger|functions)(/|$)', message: 'shared/domain imports nothing outside itself.' },
          ],
        },
      ],
    },
  },
  {
    files: ['functions/**/*.ts', 'shared/http/**/*.ts', 'shared/local/**/*.ts', 'shared/container/kit/config.ts', 'lib/**/*.ts', 'bin/**/*.ts'],
    ignores: ['shared/local/event-sources/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...awsSdkOnlyInAdapters.patterns, zodThroughSharedZod] }] },
  },
  {
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...awsSdkOnlyInAdapters.patterns,
            zodThroughSharedZod,
            {
              // shared/api-docs: the contract's allow-list and UI page, which the edge deploys as the local runtime serves them.
              group: ['../../shared/*', '../shared/*', '!../../shared/manifest', '!../shared/manifest', '!../../shared/api-docs', '!../../shared/api-docs/*'],
              message:
                'lib/ points at functions by path and imports no runtime code; the modules it shares with them are shared/manifest.ts and shared/api-docs/.',
            },
          ],
        },
      ],
    },
  },
);
