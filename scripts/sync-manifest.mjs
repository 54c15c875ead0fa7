// Writes package.json's `languageModelTools` from the tool contracts (src/core/tools/contracts.ts),
// so the schema the model sees and the one Alfred validates against are the same.
// Run: npm run sync-manifest
import fs from 'node:fs';
import { manifestTools } from '../src/core/tools/manifest.ts';

const file = new URL('../package.json', import.meta.url);
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
pkg.contributes.languageModelTools = manifestTools();
fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`[alfred] package.json: ${pkg.contributes.languageModelTools.length} language model tools`);
