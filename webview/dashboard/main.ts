import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-icon/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import { setStrings } from '../shared/l10n';
import './dashboardApp';

// The host puts the translated strings in the page as JSON (no inline script: the CSP forbids it).
const strings = document.getElementById('alfred-l10n')?.textContent;
if (strings) setStrings(JSON.parse(strings) as Record<string, string>);
document.body.appendChild(document.createElement('alfred-dashboard'));
