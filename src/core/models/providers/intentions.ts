/**
 * Intentions: what a model is good for, stable enough to choose by (the Alfred-Pi seed: a filter by
 * capability, not routing by price). Shown in the model picker's detail and usable as a failover link
 * (`{ "intention": "local" }`). Configuration says first (`vision`, `reasoning`, true or false);
 * otherwise a short, stated list of family names decides, so an unknown model gets no intention
 * rather than a wrong one.
 */
import { normalizeModelId, type ModelPrice } from '../../rules/budget/prices';
import type { Intention, ModelLink, ProviderConfig, ProviderModelConfig } from './types';

export const INTENTIONS: readonly Intention[] = ['local', 'vision', 'reasoner', 'fast'];

/** Families (a prefix ending at `-` or `:`, or the whole id) whose models take images. */
export const VISION_FAMILIES = ['gpt-4o', 'gpt-4.1', 'gpt-5', 'claude-3', 'claude-sonnet', 'claude-opus', 'claude-haiku', 'gemini', 'llava', 'pixtral'];
/** Any id with one of these words (`qwen2.5-vl`, `llama3.2-vision`) takes images too. */
const VISION_WORDS = ['vl', 'vision'];

/**
 * Families that reason before answering, whatever the request asks. Claude's extended thinking is a
 * request option Alfred does not turn on by itself, so Claude is a reasoner only by `reasoning: true`.
 */
export const REASONER_FAMILIES = ['o1', 'o3', 'o4', 'gpt-5', 'deepseek-r1', 'qwq'];
/** `gpt-5-chat` is the non-reasoning variant of gpt-5. */
const NOT_REASONERS = ['gpt-5-chat'];
/** `deepseek-reasoner`, `gemini-2.0-flash-thinking`, `claude-3-7-sonnet-thinking` (a router's alias). */
const REASONER_WORDS = ['thinking', 'reasoning', 'reasoner'];

/** Small, quick variants by name. */
const FAST_WORDS = ['mini', 'nano', 'haiku', 'flash'];
/**
 * Priced at or under both (USD per million tokens): gpt-4o-mini, gpt-4.1-mini, gpt-5-mini and
 * gemini-2.5-flash are in, the full models out. A free price (0) says nothing about speed.
 */
export const FAST_MAX_PRICE: ModelPrice = { inputPerMTok: 0.5, outputPerMTok: 2.5 };

/** A model as the classifier sees it: its configuration, or what the endpoint listed. */
export type ClassifiedModel = ProviderModelConfig & { contextLength?: number };

/**
 * The model's intentions, in the order of INTENTIONS. `tablePrice` is the price table's entry for
 * the id (priceFor, when not estimated); the model's and the provider's configured prices come first.
 */
export function intentionsOf(provider: Pick<ProviderConfig, 'baseUrl' | 'price'>, model: ClassifiedModel, tablePrice?: ModelPrice): Intention[] {
  const id = normalizeModelId(model.id);
  const out: Intention[] = [];
  if (isLocalUrl(provider.baseUrl)) out.push('local');
  if (model.vision ?? (inFamily(id, VISION_FAMILIES) || hasWord(id, VISION_WORDS))) out.push('vision');
  if (model.reasoning ?? ((inFamily(id, REASONER_FAMILIES) && !inFamily(id, NOT_REASONERS)) || hasWord(id, REASONER_WORDS))) out.push('reasoner');
  const price = model.price ?? provider.price ?? tablePrice;
  if (hasWord(id, FAST_WORDS) || (price !== undefined && isFastPrice(price))) out.push('fast');
  return out;
}

function isFastPrice(p: ModelPrice): boolean {
  return p.inputPerMTok > 0 && p.inputPerMTok <= FAST_MAX_PRICE.inputPerMTok && p.outputPerMTok <= FAST_MAX_PRICE.outputPerMTok;
}

/** `id` is the family or starts with it followed by `-` or `:` (`o3` matches `o3-mini`, never `o30`). */
function inFamily(id: string, families: readonly string[]): boolean {
  return families.some((f) => {
    const k = normalizeModelId(f);
    return id === k || (id.startsWith(k) && (id[k.length] === '-' || id[k.length] === ':'));
  });
}

/** One of the id's words (split at `-` and `:`) is in the list, or ends with `vl` for the vision word. */
function hasWord(id: string, words: readonly string[]): boolean {
  return id.split(/[-:]/).some((w) => words.includes(w) || (words.includes('vl') && /^[a-z0-9]+vl$/.test(w)));
}

/**
 * Whether a base URL's host is this machine or a private network, by its text alone (no DNS: a name
 * that resolves to a private address is not known to be local). Loopback: localhost, *.localhost,
 * 127.0.0.0/8, ::1, 0.0.0.0 and ::. Private: 10/8, 172.16/12, 192.168/16, 169.254/16 (link-local),
 * fc00::/7, fe80::/10, IPv4-mapped forms of these, and mDNS names (*.local).
 */
export function isLocalUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host.startsWith('[') && host.endsWith(']')) return isLocalIPv6(host.slice(1, -1));
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  const v4 = ipv4(host);
  return v4 !== undefined && isLocalIPv4(v4);
}

/** WHATWG URL has already turned `0x7f.1`, `2130706433` and the like into dotted decimal. */
function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : undefined;
}

function isLocalIPv4([a, b, c, d]: number[]): boolean {
  if (a === 127 || a === 10) return true;
  if (a === 0 && b === 0 && c === 0 && d === 0) return true;
  if (a === 172 && b >= 16 && b <= 31) return true;
  return (a === 192 && b === 168) || (a === 169 && b === 254);
}

/** `host` as WHATWG URL serializes it: compressed, lower case (`::ffff:7f00:1` for ::ffff:127.0.0.1). */
function isLocalIPv6(host: string): boolean {
  if (host === '::1' || host === '::') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return isLocalIPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  const first = parseInt(host.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** A model a link is matched against: VS Code's vendor, family and id, and its intentions. */
export interface LinkCandidate {
  vendor: string;
  family: string;
  id: string;
  intentions: readonly Intention[];
}

/** Every field the link sets matches exactly (as `vscode.lm.selectChatModels` does), and the intention is among the model's. */
export function matchesLink(link: ModelLink, candidate: LinkCandidate): boolean {
  if (link.vendor !== undefined && link.vendor !== candidate.vendor) return false;
  if (link.family !== undefined && link.family !== candidate.family) return false;
  if (link.id !== undefined && link.id !== candidate.id) return false;
  return link.intention === undefined || candidate.intentions.includes(link.intention);
}
