// Writes the docs pages that restate code (docs/generated/*.md) from the code itself.
// Run: npm run docs
import fs from 'node:fs';
import { generatedPages } from './lib/docPages.mjs';

const root = new URL('../', import.meta.url);
for (const [file, text] of Object.entries(await generatedPages())) {
  fs.mkdirSync(new URL('.', new URL(file, root)), { recursive: true });
  fs.writeFileSync(new URL(file, root), text);
  console.log(`[alfred] ${file}`);
}
