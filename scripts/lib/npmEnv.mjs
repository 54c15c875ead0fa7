// The environment for an npm install that this project runs itself (Node 24, code-server).
// Under `npm start` / `npm test` the outer npm exports its whole resolved configuration as
// `npm_config_*` (its `user_agent` names the outer Node, which code-server's postinstall reads to
// refuse Node 20; `local_prefix`, `prefix`, `node_gyp`, `nodedir`, `loglevel` follow too), its script
// context (`npm_lifecycle_*`, `npm_package_*`, `INIT_CWD`, `NODE`) and PATH entries of its own. An
// inner npm reads all of that as its own configuration, so none of it may leak. What the user may
// have set on purpose to reach the registry (registry, proxies, certificates, cache) is kept; the inner
// npm reads the user's .npmrc files again by itself.
import path from 'node:path';

const KEPT_NPM_CONFIG = /^npm_config_(registry|@[^:]+:registry|proxy|https?_proxy|no_?proxy|cafile|ca|cert|key|strict_ssl|userconfig|globalconfig|cache|fetch_[a-z_]+|maxsockets|prefer_offline|offline)$/i;
const NPM_SCRIPT_VARS = new Set(['INIT_CWD', 'NODE', 'COLOR']);

function isNpmPathEntry(entry) {
  const p = entry.replaceAll('\\', '/');
  return p.endsWith('/node_modules/.bin') || p.includes('@npmcli/run-script/lib/node-gyp-bin');
}

/**
 * A copy of `env` with every variable an outer npm process injected removed, PATH included.
 * @param {Record<string, string | undefined>} [env]
 * @returns {Record<string, string>}
 */
export function npmFreeEnv(env = process.env) {
  const underNpm = Object.keys(env).some((k) => /^npm_(config_user_agent|lifecycle_event|execpath)$/i.test(k));
  const out = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (/^npm_/i.test(key) && !KEPT_NPM_CONFIG.test(key)) continue;
    if (underNpm && NPM_SCRIPT_VARS.has(key)) continue;
    out[key] = value;
  }
  const pathKey = Object.keys(out).find((k) => k.toUpperCase() === 'PATH');
  if (pathKey) out[pathKey] = out[pathKey].split(path.delimiter).filter((e) => e && !isNpmPathEntry(e)).join(path.delimiter);
  return out;
}
