// Lint: typescript-eslint's recommended rules, plus the architecture's boundaries:
// the core and the webviews never import `vscode`; the core never touches the DOM.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'src/core and webview/ must stay free of the VS Code API; put it in src/vscode/.' }],
};

// A hook call without a server is a new process: Node's crypto would cost it ~8 ms to load.
const cryptoMessage = 'Hash and draw ids through src/core/base/crypto/, which loads Node\'s crypto only in long-lived processes.';
const noNodeCrypto = [{ name: 'node:crypto', message: cryptoMessage }, { name: 'crypto', message: cryptoMessage }];

export default tseslint.config(
  { ignores: ['dist/**', 'media/webview/**', 'node_modules/**', 'test/fixtures/**', '.vscode-test/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/protocol/**/*.ts', 'src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...noVscode.paths, ...noNodeCrypto] }],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'HTMLElement', 'customElements'],
    },
  },
  {
    files: ['src/core/base/crypto/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', noVscode] },
  },
  {
    files: ['webview/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', noVscode] },
  },
  {
    files: ['src/protocol/**/*.ts', 'webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        ...noVscode,
        // The one money format (src/core/base/money.ts, pure and dependency-free) is shared with the page.
        patterns: [
          { group: ['**/vscode/**'], message: 'The webview and the protocol share only src/protocol/ (and the money format).' },
          { regex: '/core/(?!base/money$)', message: 'The webview and the protocol share only src/protocol/ (and the money format).' },
        ],
      }],
    },
  },
);
