// Lint: typescript-eslint's recommended rules, plus the architecture's boundaries:
// the core and the webviews never import `vscode`; the core never touches the DOM.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const noVscode = {
  paths: [{ name: 'vscode', message: 'src/core and webview/ must stay free of the VS Code API; put it in src/vscode/.' }],
};

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
      'no-restricted-imports': ['error', noVscode],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'HTMLElement', 'customElements'],
    },
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
        patterns: [{ group: ['**/vscode/**', '**/core/**'], message: 'The webview and the protocol share only src/protocol/.' }],
      }],
    },
  },
);
