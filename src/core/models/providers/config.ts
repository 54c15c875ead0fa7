/**
 * Reads `alfred.providers`. The settings file may be written by a careless hand or an agent: keys
 * only by reference (keys.ts), no value starting with `!` anywhere (never executed), http(s) URLs
 * without credentials, and problems that name the path and key but never repeat a refused value.
 * An entry with a bad field is left out (a bad model only drops that model); unknown keys are
 * reported and ignored; the other providers still load.
 */
import type { ModelPrice } from '../../rules/budget/prices';
import { HOW_TO_STORE_KEY, parseKeyReference } from './keys';
import type { ProviderConfig, ProviderModelConfig, ProviderProblem, ProviderProtocol } from './types';
import { isObject } from '../../base/isObject';

export const PROVIDER_KEYS = ['name', 'protocol', 'baseUrl', 'key', 'models', 'price', 'timeoutMs'] as const;
export const MODEL_KEYS = ['id', 'name', 'maxInputTokens', 'maxOutputTokens', 'vision', 'toolCalling', 'reasoning', 'price'] as const;
export const PRICE_KEYS = ['inputPerMTok', 'outputPerMTok', 'cachedInputPerMTok', 'cacheWritePerMTok'] as const;

const NAME = /^[A-Za-z0-9_-]{1,32}$/;
/** Names that would turn into Object.prototype's own keys if a caller indexed an object by name. */
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
/** A model id as endpoints spell them (`gpt-4o`, `llama3.1:8b`, `meta-llama/Llama-3-70b`): visible ASCII. */
const MODEL_ID = /^[\x21-\x7e]{1,256}$/;
const MAX_URL = 2048;
const MAX_MODEL_NAME = 128;
const MAX_TOKENS = 100_000_000;
export const MIN_TIMEOUT_MS = 1_000;
export const MAX_TIMEOUT_MS = 600_000;

type Report = (key: string, message: string) => void;
type Obj = Record<string, unknown>;

/** How doctor names a problem: by the entry's name where it has one (`alfred.providers "local" ([1].baseUrl)`), else by its index. */
export function problemLabel(p: ProviderProblem): string {
  return p.provider ? `${p.path} "${p.provider}" (${p.key})` : `${p.path} ${p.key}`;
}

/** Reads the setting's value; bad entries are reported with their key and left out. */
export function parseProviders(value: unknown, where = 'settings: alfred.providers'): { providers: ProviderConfig[]; problems: ProviderProblem[] } {
  const problems: ProviderProblem[] = [];
  const report: Report = (key, message) => problems.push({ path: where, key, message });
  if (value === undefined || value === null) return { providers: [], problems };
  if (!Array.isArray(value)) {
    report('', 'must be a list of providers ({ "name", "protocol", "baseUrl", "key", "models" })');
    return { providers: [], problems };
  }
  const providers: ProviderConfig[] = [];
  const seen = new Set<string>();
  value.forEach((raw, i) => {
    const named = isObject(raw) && typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim().slice(0, 64) : undefined;
    const reportEntry: Report = named ? (key, message) => problems.push({ path: where, key, message, provider: named }) : report;
    const p = parseProvider(raw, `[${i}]`, reportEntry);
    if (!p) return;
    // Compared without case, so `OpenAI` and `openai` never both name a vendor.
    if (seen.has(p.name.toLowerCase())) return reportEntry(`[${i}].name`, `"${p.name}" is defined twice; the first one is used`);
    seen.add(p.name.toLowerCase());
    providers.push(p);
  });
  return { providers, problems };
}

function parseProvider(raw: unknown, at: string, report: Report): ProviderConfig | undefined {
  if (!isObject(raw)) return void report(at, 'must be an object with "name", "protocol" and "baseUrl"');
  unknownKeys(raw, at, PROVIDER_KEYS, report);
  if (refusesCommands(raw, at, report)) return undefined;
  let ok = true;

  const name = own(raw, 'name');
  if (typeof name !== 'string' || !NAME.test(name.trim())) ok = fail(report, `${at}.name`, 'must be 1 to 32 letters, digits, _ or -');
  else if (RESERVED_NAMES.has(name.trim())) ok = fail(report, `${at}.name`, 'is a reserved word; choose another name');

  const protocol = own(raw, 'protocol');
  if (protocol !== 'openai' && protocol !== 'anthropic') ok = fail(report, `${at}.protocol`, 'must be "openai" (OpenAI-compatible chat completions) or "anthropic" (messages API)');

  const baseUrl = parseBaseUrl(own(raw, 'baseUrl'), `${at}.baseUrl`, report);
  if (baseUrl === undefined) ok = false;

  const key = parseKeyReference(own(raw, 'key'));
  if (!key.ok) ok = fail(report, `${at}.key`, key.reason);

  const models = parseModels(own(raw, 'models'), `${at}.models`, report);
  if (models === undefined) ok = false;

  const price = own(raw, 'price') === undefined ? undefined : parsePrice(own(raw, 'price'), `${at}.price`, report);
  if (own(raw, 'price') !== undefined && !price) ok = false;

  const timeout = own(raw, 'timeoutMs');
  if (timeout !== undefined && !(Number.isInteger(timeout) && (timeout as number) >= MIN_TIMEOUT_MS && (timeout as number) <= MAX_TIMEOUT_MS)) {
    ok = fail(report, `${at}.timeoutMs`, `must be a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS}`);
  }

  if (!ok || !key.ok || baseUrl === undefined || models === undefined) return undefined;
  return {
    name: (name as string).trim(),
    protocol: protocol as ProviderProtocol,
    baseUrl,
    key: key.ref,
    models,
    ...(price ? { price } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout as number } : {}),
  };
}

/** http(s), a host, no credentials; trailing slashes dropped so a client can append `/chat/completions`. */
function parseBaseUrl(v: unknown, at: string, report: Report): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return void report(at, 'must be the API\'s URL, e.g. "https://api.openai.com/v1"');
  const text = v.trim();
  if (text.length > MAX_URL) return void report(at, `is longer than ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return void report(at, 'is not a URL: write it as "https://host/path" or "http://127.0.0.1:port/v1"');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return void report(at, 'must start with http:// or https://');
  if (!url.hostname) return void report(at, 'must name a host');
  if (url.username || url.password) return void report(at, `must not hold credentials (user:password@): ${HOW_TO_STORE_KEY}`);
  return text.replace(/\/+$/, '');
}

/** Absent: ask the endpoint (`list`). A list: each model checked, bad ones left out. */
function parseModels(v: unknown, at: string, report: Report): ProviderModelConfig[] | 'list' | undefined {
  if (v === undefined || v === 'list') return 'list';
  if (!Array.isArray(v)) return void report(at, 'must be "list" (ask the endpoint) or a list of models ({ "id", ... })');
  if (v.length === 0) return void report(at, 'is empty: list at least one model, or write "list" to ask the endpoint');
  const models: ProviderModelConfig[] = [];
  const ids = new Set<string>();
  v.forEach((raw, j) => {
    const m = parseModel(raw, `${at}[${j}]`, report);
    if (!m) return;
    if (ids.has(m.id)) return report(`${at}[${j}].id`, `"${m.id}" is listed twice; the first one is used`);
    ids.add(m.id);
    models.push(m);
  });
  // Every model was bad (each one reported): offering none would only hide the problems.
  return models.length > 0 ? models : undefined;
}

function parseModel(raw: unknown, at: string, report: Report): ProviderModelConfig | undefined {
  if (typeof raw === 'string') raw = { id: raw }; // `"gpt-4o"` is short for `{ "id": "gpt-4o" }`
  if (!isObject(raw)) return void report(at, 'must be a model id or an object with "id"');
  unknownKeys(raw, at, MODEL_KEYS, report);
  if (refusesCommands(raw, at, report)) return undefined;
  let ok = true;
  const out: ProviderModelConfig = { id: '' };

  const id = own(raw, 'id');
  if (typeof id !== 'string' || !MODEL_ID.test(id.trim())) ok = fail(report, `${at}.id`, 'must be the model\'s id as the endpoint spells it (1 to 256 characters, no spaces)');
  else out.id = id.trim();

  const name = own(raw, 'name');
  if (name !== undefined) {
    if (typeof name !== 'string' || !name.trim() || name.length > MAX_MODEL_NAME) ok = fail(report, `${at}.name`, `must be a non-empty string of at most ${MAX_MODEL_NAME} characters`);
    else out.name = name.trim();
  }
  for (const k of ['maxInputTokens', 'maxOutputTokens'] as const) {
    const n = own(raw, k);
    if (n === undefined) continue;
    if (Number.isInteger(n) && (n as number) > 0 && (n as number) <= MAX_TOKENS) out[k] = n as number;
    else ok = fail(report, `${at}.${k}`, `must be a whole number of tokens from 1 to ${MAX_TOKENS}`);
  }
  for (const k of ['vision', 'toolCalling', 'reasoning'] as const) {
    const b = own(raw, k);
    if (b === undefined) continue;
    if (typeof b === 'boolean') out[k] = b;
    else ok = fail(report, `${at}.${k}`, 'must be true or false');
  }
  if (own(raw, 'price') !== undefined) {
    const price = parsePrice(own(raw, 'price'), `${at}.price`, report);
    if (price) out.price = price;
    else ok = false;
  }
  return ok ? out : undefined;
}

/** USD per million tokens: input and output required, cache prices optional; finite, not negative. */
function parsePrice(v: unknown, at: string, report: Report): ModelPrice | undefined {
  if (!isObject(v)) return void report(at, 'must be an object { "inputPerMTok", "outputPerMTok" } in USD per million tokens');
  unknownKeys(v, at, PRICE_KEYS, report);
  if (refusesCommands(v, at, report)) return undefined;
  const price: Partial<ModelPrice> = {};
  let ok = true;
  for (const k of PRICE_KEYS) {
    const n = own(v, k);
    const required = k === 'inputPerMTok' || k === 'outputPerMTok';
    if (n === undefined && !required) continue;
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) price[k] = n;
    else ok = fail(report, `${at}.${k}`, n === undefined ? 'is required: USD per million tokens, a number of at least 0' : 'must be USD per million tokens, a number of at least 0');
  }
  return ok ? (price as ModelPrice) : undefined;
}

/**
 * A value starting with `!` runs a command in some tools' configuration; Alfred refuses the whole
 * entry when any of its fields (known or not) holds one, and runs nothing.
 */
function refusesCommands(raw: Obj, at: string, report: Report): boolean {
  let refused = false;
  for (const k of Object.keys(raw)) {
    if (!startsWithBang(raw[k])) continue;
    refused = true;
    report(`${at}.${k}`, `starts with "!": Alfred never runs commands from settings; the entry is left out${k === 'key' ? `. To give a key, ${HOW_TO_STORE_KEY}` : ''}`);
  }
  return refused;
}

function unknownKeys(raw: Obj, at: string, known: readonly string[], report: Report): void {
  for (const k of Object.keys(raw)) {
    if (!known.includes(k)) report(`${at}.${k}`, `unknown key, ignored (expected ${known.join(', ')})`);
  }
}

function startsWithBang(v: unknown): boolean {
  return typeof v === 'string' && v.trimStart().startsWith('!');
}


/** Own properties only: an inherited or `__proto__`-smuggled value is never read. */
function own(o: Obj, k: string): unknown {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function fail(report: Report, key: string, message: string): false {
  report(key, message);
  return false;
}
