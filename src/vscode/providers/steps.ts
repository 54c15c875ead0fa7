import * as vscode from 'vscode';

/**
 * One step of a multi-step input (Add Provider): a title and "step N of M" on every box, as VS Code's
 * own multi-step inputs show them. `showInputBox`/`showQuickPick` take neither, hence the
 * `create…` forms. Undefined when the user pressed Escape.
 */
export interface Step {
  title: string;
  step: number;
  totalSteps: number;
}

export function inputStep(s: Step & { prompt: string; placeholder?: string; password?: boolean; validate?: (value: string) => string | undefined }): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  Object.assign(box, { title: s.title, step: s.step, totalSteps: s.totalSteps, prompt: s.prompt, placeholder: s.placeholder ?? '', password: s.password ?? false, ignoreFocusOut: true });
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      box.dispose();
    };
    box.onDidChangeValue((v) => { box.validationMessage = s.validate?.(v); });
    box.onDidAccept(() => {
      const problem = s.validate?.(box.value);
      if (problem) box.validationMessage = problem;
      else finish(box.value);
    });
    box.onDidHide(() => finish(undefined));
    box.show();
  });
}

export function pickStep<T extends vscode.QuickPickItem>(s: Step & { placeholder: string; items: readonly T[] }): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  Object.assign(pick, { title: s.title, step: s.step, totalSteps: s.totalSteps, placeholder: s.placeholder, items: s.items, ignoreFocusOut: true });
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidAccept(() => finish(pick.selectedItems[0] ?? pick.activeItems[0]));
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
