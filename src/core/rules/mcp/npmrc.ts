/**
 * The registry the user's npm is configured for, as `npm config get registry` would answer: the
 * `npm_config_*` environment first, then the project's `.npmrc`, the user's (`npm_config_userconfig`
 * or `~/.npmrc`) and the global one (`npm_config_globalconfig`, when set), then npm's default. Scoped
 * registries (`@scope:registry`) and `//host/path/:_authToken` lines are read too, so a private
 * scope's packages are fetched where npm would fetch them, with npm's token.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { readIfExists } from '../../base/fs/readIfExists';

export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

export interface NpmRegistryConfig {
  /** The default registry, ending with `/`. */
  registry: string;
  /** `@scope` → registry, ending with `/`. */
  scopes: Record<string, string>;
  /** `//host/path/` → token, kept in memory only: sent to that registry, never written. */
  tokens: Record<string, string>;
}

export interface NpmrcOptions {
  workspaceFolder?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

/** `key = value` lines; `;` and `#` start comments; `${VAR}` is replaced from the environment, as npm does. */
export function parseNpmrc(text: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    if (eq === -1) continue;
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? '');
  }
  return out;
}

/** `npm_config_registry`, `NPM_CONFIG_@scope:registry`, …: npm reads these case-insensitively. */
function envConfig(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && k.toLowerCase().startsWith('npm_config_')) out[k.slice('npm_config_'.length)] = v;
  }
  return out;
}

function fileConfig(file: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const text = file ? readIfExists(file) : undefined;
  return text === undefined ? {} : parseNpmrc(text, env);
}

export function npmRegistryConfig(opts: NpmrcOptions = {}): NpmRegistryConfig {
  const env = opts.env ?? process.env;
  const fromEnv = envConfig(env);
  const lower = (o: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toLowerCase(), v]));
  const userFile = lower(fromEnv).userconfig ?? path.join(opts.home ?? os.homedir(), '.npmrc');
  const layers = [
    fileConfig(lower(fromEnv).globalconfig, env),
    fileConfig(userFile, env),
    fileConfig(opts.workspaceFolder ? path.join(opts.workspaceFolder, '.npmrc') : undefined, env),
    fromEnv,
  ];
  const config: NpmRegistryConfig = { registry: DEFAULT_REGISTRY, scopes: {}, tokens: {} };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const k = key.toLowerCase();
      if (k === 'registry' && value) config.registry = withSlash(value);
      else if (/^@[^:]+:registry$/.test(k) && value) config.scopes[k.slice(0, k.indexOf(':'))] = withSlash(value);
      else if (key.startsWith('//') && key.endsWith(':_authToken') && value) config.tokens[key.slice(0, -':_authToken'.length)] = value;
    }
  }
  return config;
}

/** The registry npm would fetch `name` from. */
export function registryFor(config: NpmRegistryConfig, name: string): string {
  const scope = name.startsWith('@') ? name.slice(0, name.indexOf('/')).toLowerCase() : undefined;
  return (scope && config.scopes[scope]) || config.registry;
}

/** npm's token for a URL: the longest `//host/path/` key the URL starts with. */
export function tokenFor(config: NpmRegistryConfig, url: string): string | undefined {
  const bare = url.replace(/^https?:/, '');
  const key = Object.keys(config.tokens).filter((k) => bare.startsWith(withSlash(k))).sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : config.tokens[key];
}
