/**
 * Alfred's own models, in the extension host, through VS Code's language-model API: an endpoint of
 * `alfred.providers` (a real loopback server speaking OpenAI's protocol) with its key as `$VAR`,
 * answers streamed, tool calls passed on, usage reported and charged exactly, a budget that holds
 * even for a caller that is not @alfred, and a key that never reaches what Alfred writes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startFakeModelServer, type FakeModelServer } from '../../support/fakeModelServer';
import { ask, setUserSetting } from '../chat';
import { alfred, freshSession, until, writeRole } from '../helpers';

const KEY = 'sk-test-0123456789abcdef';
/** A key typed into the settings as it is, which Alfred refuses to use and must not copy anywhere. */
const LITERAL = 'sk-typed-into-settings-0123456789';
const MODEL = 'alfred/fake/fake-model';
const PRICE = { inputPerMTok: 2, cachedInputPerMTok: 0.5, outputPerMTok: 10 };

async function alfredModel(): Promise<vscode.LanguageModelChat> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    const [model] = await vscode.lm.selectChatModels({ vendor: 'alfred', id: MODEL });
    if (model) return model;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${MODEL} was never listed`);
}

async function collect(response: vscode.LanguageModelChatResponse): Promise<{ text: string; calls: vscode.LanguageModelToolCallPart[]; usage: unknown }> {
  let text = '';
  const calls: vscode.LanguageModelToolCallPart[] = [];
  let usage: unknown;
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    else if (part instanceof vscode.LanguageModelDataPart && part.mimeType === 'usage') usage = JSON.parse(new TextDecoder().decode(part.data));
  }
  return { text, calls, usage };
}

suite('Alfred\'s own models (alfred.providers)', () => {
  let server: FakeModelServer;

  suiteSetup(async () => {
    server = await startFakeModelServer({ apiKey: KEY });
    process.env.ALFRED_TEST_PROVIDER_KEY = KEY;
    await setUserSetting('providers', [fakeProvider()]);
  });
  const fakeProvider = () => ({ name: 'fake', protocol: 'openai', baseUrl: `${server.url}/v1`, key: '$ALFRED_TEST_PROVIDER_KEY', models: [{ id: 'fake-model', price: PRICE }] });
  suiteTeardown(async () => {
    await freshSession('coder');
    await setUserSetting('providers', undefined);
    delete process.env.ALFRED_TEST_PROVIDER_KEY;
    await server.close();
  });

  test('listed in VS Code with its intentions; an answer streams, its usage is reported and charged exactly, once', async () => {
    const h = await freshSession('coder');
    const model = await alfredModel();
    assert.deepEqual([model.vendor, model.name, model.family], ['alfred', 'fake-model', 'fake-model']);
    server.script([{ text: ['Hello ', 'from the endpoint.'], usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1000 } }]);
    const out = await collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}));
    assert.equal(out.text, 'Hello from the endpoint.');
    assert.deepEqual(out.usage, { prompt_tokens: 1200, completion_tokens: 40, total_tokens: 1240, prompt_tokens_details: { cached_tokens: 1000 } });
    const request = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!;
    assert.equal(request.headers.authorization, `Bearer ${KEY}`, 'the key was resolved from the environment when the request was made');
    assert.equal((request.body as { model: string }).model, 'fake-model');
    const expected = (200 * 2 + 1000 * 0.5 + 40 * 10) / 1e6;
    await until('the charge', () => h.budget().status.dimensions.cost.used > 0);
    assert.ok(Math.abs(h.budget().status.dimensions.cost.used - expected) < 1e-12, `${h.budget().status.dimensions.cost.used} vs ${expected}`);
    const usage = h.events({ types: ['ModelUsage'] }).events.filter((e) => e.session === h.budget().session);
    assert.deepEqual(usage.map((e) => [e.model, e.source, e.measured, e.inputTokens, e.cachedInputTokens, e.outputTokens]), [[MODEL, 'alfred', 'reported', 1200, 1000, 40]]);
  });

  test('tool calls come back as VS Code tool calls; tool results go to the endpoint', async () => {
    await freshSession('coder');
    const model = await alfredModel();
    server.script([{ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: ['{"q":', '"x"}'] }], usage: { inputTokens: 10, outputTokens: 5 } }]);
    const out = await collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('look it up')], {
      tools: [{ name: 'lookup', description: 'Looks up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }],
    }));
    assert.deepEqual(out.calls.map((c) => [c.callId, c.name, c.input]), [['call_1', 'lookup', { q: 'x' }]]);
    server.script([{ text: ['Found.'], usage: { inputTokens: 20, outputTokens: 2 } }]);
    const second = await collect(await model.sendRequest([
      vscode.LanguageModelChatMessage.User('look it up'),
      vscode.LanguageModelChatMessage.Assistant([new vscode.LanguageModelToolCallPart('call_1', 'lookup', { q: 'x' })]),
      vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart('call_1', [new vscode.LanguageModelTextPart('42')])]),
    ], {}));
    assert.equal(second.text, 'Found.');
    const body = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body as { messages: Array<{ role: string; tool_call_id?: string; content?: unknown }> };
    assert.deepEqual(body.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]), [['call_1', '42']]);
  });

  test('with the budget exhausted, the provider refuses the request itself, with the budget line, whoever asks', async () => {
    writeRole('penny', '[role]\nname = "penny"\ninherits = "coder"\ndescription = "a tenth of a cent"\n[limits]\nmax_cost_usd = 0.001\n');
    const api = await alfred();
    await until('the penny role', () => api.harness()?.roles().roles.get('penny'));
    const h = await freshSession('penny');
    const model = await alfredModel();
    server.script([{ text: ['Costly.'], usage: { inputTokens: 1000, outputTokens: 100 } }]);
    await collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('spend')], {}));
    await until('the budget to be exhausted', () => h.budget().status.signal === 'EXHAUSTED');
    // Chat requests only: the Models section's health checks may list the models meanwhile.
    const chats = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const before = chats();
    await assert.rejects(async () => collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('more')], {})),
      (err: Error) => /Alfred \(role penny\): the budget is exhausted, so this request was not sent\. Budget\[penny\]:.*EXHAUSTED/.test(err.message));
    assert.equal(chats(), before, 'nothing reached the endpoint');
  });

  test('@alfred on Alfred\'s model: the usage charged once (by @alfred, not again by the provider); a safety refusal is shown and is no failure for failover', async () => {
    const h = await freshSession('coder');
    const model = await alfredModel();
    server.script([{ text: ['Once.'], usage: { inputTokens: 1200, outputTokens: 40, cachedInputTokens: 1000 } }]);
    const { out, meta } = await ask('count me once', { model });
    assert.match(out.text, /Once\./);
    assert.equal(meta.stopped, 'done');
    const charges = h.events({ types: ['ModelUsage'] }).events.filter((e) => e.session === h.budget().session);
    assert.equal(charges.length, 1, JSON.stringify(charges.map((e) => e.source)));
    assert.ok(Math.abs(h.budget().status.dimensions.cost.used - (200 * 2 + 1000 * 0.5 + 40 * 10) / 1e6) < 1e-12);

    server.script([{ contentFilter: true, refusalText: ['I can\'t help with that.'] }]);
    const refused = await ask('something refused', { model });
    assert.equal(refused.meta.stopped, 'refused');
    assert.match(String(refused.result.errorDetails?.message), /^The model alfred\/fake\/fake-model declined: .*I can't help with that\./);
  });

  test('/doctor on Alfred\'s model: its probe is charged once, as the doctor\'s, with the usage the endpoint reported; the model named once', async () => {
    const h = await freshSession('coder');
    const model = await alfredModel();
    server.script([{ text: ['ok'], usage: { inputTokens: 30, outputTokens: 1 } }]);
    const { out } = await ask('', { command: 'doctor', model });
    const charges = h.events({ types: ['ModelUsage'] }).events.filter((e) => e.session === h.budget().session);
    assert.deepEqual(charges.map((e) => [e.source, e.measured, e.inputTokens, e.outputTokens]), [['doctor', 'reported', 30, 1]]);
    assert.match(out.text, /✅ `the chat's model` → fake-model \(`alfred\/fake\/fake-model`\) · /);
  });

  test('the key never reaches the event log, traces, usage records or any file Alfred wrote, nor does one typed into the settings', async () => {
    const h = await freshSession('coder');
    // A second provider with its key written into the settings as it is: refused, and published for the CLI without it.
    await setUserSetting('providers', [fakeProvider(), { name: 'typed', protocol: 'openai', baseUrl: 'https://api.example.com/v1', key: LITERAL, models: ['m'] }]);
    const published = path.join(h.stateDir, 'providers.json');
    await until('providers.json lists the second provider', () => fs.existsSync(published) && fs.readFileSync(published, 'utf8').includes('"typed"'));
    assert.match(fs.readFileSync(published, 'utf8'), /"key":"\$ALFRED_TEST_PROVIDER_KEY"/, 'a reference is published as written');
    const model = await alfredModel();
    server.script([{ status: 500, error: `upstream failed for key ${KEY}` }]);
    await assert.rejects(async () => collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('fail')], {})), (err: Error) => !err.message.includes(KEY));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) walk(full);
        else if (e.isFile() && !e.name.endsWith('.sock')) files.push(full);
      }
    };
    walk(path.dirname(path.dirname(h.stateDir)));
    assert.ok(files.length > 3, `Alfred's files: ${files.length}`);
    for (const f of files) {
      assert.equal(fs.readFileSync(f, 'latin1').includes(KEY), false, `${f} holds the key`);
      assert.equal(fs.readFileSync(f, 'latin1').includes(LITERAL), false, `${f} holds the key typed into the settings`);
    }
    await setUserSetting('providers', [fakeProvider()]);
  });
});
