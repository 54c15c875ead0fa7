import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, alfred } from '../helpers';

interface Step { id: string; title: string; description: string; media: { markdown?: string }; completionEvents?: string[] }
interface Walkthrough { id: string; title: string; steps: Step[] }

/** The commands a step's description runs: its `[label](command:id)` links. */
const linkedCommands = (description: string) => [...description.matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);

suite('Walkthrough', () => {
  test('the getting-started walkthrough is contributed: a role, Copilot, the checks, a model, each with a button that runs a real command', async () => {
    await alfred();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const walkthroughs = ext.packageJSON.contributes.walkthroughs as Walkthrough[];
    assert.equal(walkthroughs.length, 1);
    const [walkthrough] = walkthroughs;
    assert.equal(walkthrough!.title, 'Get started with Alfred');
    assert.deepEqual(walkthrough!.steps.map((s) => s.id), ['pickRole', 'governCopilot', 'setChecks', 'configureModel']);

    const registered = new Set(await vscode.commands.getCommands(true));
    const expected = { pickRole: 'alfred.switchRole', governCopilot: 'alfred.governCopilot', setChecks: 'alfred.verifyCompletion', configureModel: 'alfred.addProvider' };
    for (const step of walkthrough!.steps) {
      const command = expected[step.id as keyof typeof expected];
      assert.deepEqual(linkedCommands(step.description), [command], `${step.id}'s button`);
      assert.deepEqual(step.completionEvents, [`onCommand:${command}`], `${step.id} completes when its command runs`);
      assert.ok(registered.has(command), `${command} is registered`);
      assert.ok(!step.title.startsWith('%'), `${step.id}'s title is translated: ${step.title}`);
      assert.ok(fs.existsSync(path.join(ext.extensionPath, step.media.markdown!)), `${step.media.markdown} ships with the extension`);
    }
  });

  test('the Spanish walkthrough names its own media, which ship too', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const es = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.nls.es.json'), 'utf8')) as Record<string, string>;
    const media = Object.entries(es).filter(([key]) => /^walkthrough\.\w+\.media$/.test(key)).map(([, file]) => file);
    assert.equal(media.length, 4);
    for (const file of media) {
      assert.match(file, /^media\/walkthrough\/es\//);
      assert.ok(fs.existsSync(path.join(ext.extensionPath, file)), file);
    }
  });
});
