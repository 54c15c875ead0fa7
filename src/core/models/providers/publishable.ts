/**
 * `alfred.providers` as the editor publishes it in the state folder for the hook processes and the CLI
 * (base/state/published.ts, `providers.json`): the setting's own shape, so they read it and report its
 * problems as the editor does, with no value that could be a key. A settings file may hold one typed
 * by hand, and nothing Alfred writes may: a `key` that is not a reference (`$VAR`, `${VAR}`,
 * `secret:NAME`) becomes `***`, so is the user:password of a `baseUrl`, and so is every value the
 * schema does not know (a key typed as "apiKey"). Each was refused by the editor already: the CLI
 * still refuses or ignores it, naming its place, and learns nothing more.
 */
import { MASK } from '../../base/config/redact';
import { isObject } from '../../base/isObject';
import { MODEL_KEYS, PRICE_KEYS, PROVIDER_KEYS } from './config';
import { parseKeyReference } from './keys';

type Obj = Record<string, unknown>;

export function publishableProviders(value: unknown): unknown {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return MASK;
  return value.map((entry) => (isObject(entry) ? publishableProvider(entry) : MASK));
}

function publishableProvider(entry: Obj): Obj {
  return mapKnown(entry, PROVIDER_KEYS, (k, v) => {
    if (k === 'key') return isReference(v) ? v : MASK;
    if (k === 'baseUrl') return withoutCredentials(v);
    if (k === 'models') return Array.isArray(v) ? v.map(publishableModel) : v === 'list' || v === undefined ? v : MASK;
    if (k === 'price') return publishablePrice(v);
    return v;
  });
}

/** A model: its id as a string (`"gpt-4o"`), or an object of known fields. */
function publishableModel(model: unknown): unknown {
  if (typeof model === 'string') return model;
  if (!isObject(model)) return MASK;
  return mapKnown(model, MODEL_KEYS, (k, v) => (k === 'price' ? publishablePrice(v) : v));
}

function publishablePrice(price: unknown): unknown {
  return isObject(price) ? mapKnown(price, PRICE_KEYS, (_k, v) => (typeof v === 'number' ? v : MASK)) : MASK;
}

/** The object's own fields: a known one as `known` gives it, any other one's value masked (its name kept, to be reported). */
function mapKnown(raw: Obj, keys: readonly string[], known: (k: string, v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const k of Object.keys(raw)) {
    // Defined as own data, so a `__proto__` field stays a field, as JSON.parse made it.
    Object.defineProperty(out, k, { value: keys.includes(k) ? known(k, raw[k]) : MASK, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** `$VAR`, `${VAR}`, `secret:NAME`, or no key at all (null). */
function isReference(v: unknown): boolean {
  return parseKeyReference(v).ok;
}

/** A URL with its user and password replaced by `***`; a text that is no URL but could hold them, masked whole. */
function withoutCredentials(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  let url: URL;
  try {
    url = new URL(v.trim());
  } catch {
    return v.includes('@') ? MASK : v;
  }
  if (!url.username && !url.password) return v;
  url.username = MASK;
  url.password = '';
  return url.toString();
}
