import { css } from 'lit';

/** The role editor's look: VS Code's own colours only, so light, dark and high contrast all work. */
export const editorStyles = css`
  :host { display: block; padding: 8px 20px 24px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  h1 { font-size: 1.4em; font-weight: 600; margin: 8px 0 12px; }
  h2 { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; margin: 16px 0 6px; }
  .grid { display: grid; grid-template-columns: minmax(320px, 1fr) minmax(260px, 420px); gap: 28px; align-items: start; }
  @media (max-width: 760px) { .grid { grid-template-columns: 1fr; } }
  .form vscode-textfield, .form vscode-single-select { width: 100%; }
  vscode-label { display: block; margin-top: 12px; }
  .hint, .muted { color: var(--vscode-descriptionForeground); margin: 3px 0; }
  fieldset { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent)); border-radius: 4px; margin: 14px 0 0; padding: 6px 10px 10px; }
  legend { padding: 0 4px; font-weight: 600; }
  .limits { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0 12px; }
  .field-problem, .error, li.error { color: var(--vscode-errorForeground); margin: 3px 0; }
  .warning, li.warning { color: var(--vscode-editorWarning-foreground); }
  .ok { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
  aside { position: sticky; top: 8px; }
  aside ul { margin: 0; padding-left: 18px; }
  code, pre { font-family: var(--vscode-editor-font-family); }
  code { word-break: break-all; }
  pre { white-space: pre-wrap; background: var(--vscode-textCodeBlock-background); padding: 8px; margin: 0; min-height: 3em; }
  pre:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
  .actions { display: flex; gap: 8px; margin-top: 14px; }
`;
