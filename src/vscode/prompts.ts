import * as vscode from 'vscode';

/**
 * Questions Alfred asks the user. A modal dialog, not chat's tool confirmation: auto-approve settings
 * and hooks can skip the latter, and an agent must never raise its own privileges silently.
 * Integration tests replace `confirm` through the extension's API.
 */
export const prompts = {
  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, action);
    return choice === action;
  },
};
