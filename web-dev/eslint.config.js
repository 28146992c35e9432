// ESLint for the web app's browser modules (run: npm run check).
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser },
    },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      'no-var': 'error',
      'prefer-const': 'error',
      // User text is shown as text: never assign HTML.
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'use textContent / dom.js h()' },
        { property: 'outerHTML', message: 'use textContent / dom.js h()' },
        { property: 'insertAdjacentHTML', message: 'use dom.js h()' },
      ],
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.property.name='write'][callee.object.name='document']", message: 'no document.write' }],
    },
  },
];
