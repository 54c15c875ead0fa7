import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** A webview page with a strict CSP: only our bundle (by nonce) and VS Code's own styles may load. */
export function webviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, opts: { script: string; title: string; strings: Record<string, string> }): string {
  const nonce = randomBytes(16).toString('base64');
  const media = vscode.Uri.joinPath(extensionUri, 'media', 'webview');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(media, opts.script));
  const codicons = webview.asWebviewUri(vscode.Uri.joinPath(media, 'codicon.css'));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource} 'unsafe-inline'`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  // The strings travel as JSON data, not script: the CSP allows no inline script.
  const strings = JSON.stringify(opts.strings).replace(/</g, '\\u003c');
  return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${codicons}" id="vscode-codicon-stylesheet">
<title>${opts.title}</title>
</head>
<body>
<script type="application/json" id="alfred-l10n">${strings}</script>
<script type="module" nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
}

/** Webviews may load only the built bundles. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media', 'webview')] };
}
