/**
 * What a package launcher's argument names: the package and the version it asks for, per ecosystem,
 * and whether that version is pinned (an exact version, or for Docker an image digest: a tag moves).
 */
import valid from 'semver/functions/valid';
import type { McpPackageRef } from './types';

/** npm's rule for package names (lowercase, URL-safe, one optional scope). */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** `pkg`, `pkg@1.2.3`, `@scope/pkg@latest`, `pkg@^1`; a git URL, a path or a tarball URL is not a registry package. */
export function npmPackage(arg: string): McpPackageRef {
  const at = arg.indexOf('@', arg.startsWith('@') ? 1 : 0);
  const name = at === -1 ? arg : arg.slice(0, at);
  const spec = at === -1 ? 'latest' : arg.slice(at + 1) || 'latest';
  if (!NPM_NAME.test(name)) return { ecosystem: 'npm', name: arg, spec: arg, pinned: false };
  const exact = valid(spec, { loose: false });
  return exact && exact === spec.replace(/^v/, '')
    ? { ecosystem: 'npm', name, spec, version: exact, pinned: true }
    : { ecosystem: 'npm', name, spec, pinned: false };
}

/** Whether npmPackage found a registry package (a name npm's registry can hold). */
export function isRegistryName(ref: McpPackageRef): boolean {
  return ref.ecosystem === 'npm' && NPM_NAME.test(ref.name);
}

/** PEP 440 release numbers (`1.2.3`, `2024.1.0rc1`): what `==` pins. */
const PY_VERSION = /^\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?$/;

/** `pkg`, `pkg==1.2.3`, `pkg@1.2.3` (uvx), `pkg[extra]>=1`, `pkg@latest`. */
export function pypiPackage(arg: string): McpPackageRef {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*(.*)$/.exec(arg.trim());
  if (!m) return { ecosystem: 'pypi', name: arg, spec: arg, pinned: false };
  const name = m[1]!.toLowerCase();
  const rest = m[3]!.trim();
  const exact = /^(?:==|@)\s*(\S+)$/.exec(rest)?.[1];
  if (exact && PY_VERSION.test(exact)) return { ecosystem: 'pypi', name, spec: exact, version: exact, pinned: true };
  return { ecosystem: 'pypi', name, spec: rest.replace(/^@/, '') || 'latest', pinned: false };
}

/** `image`, `image:tag`, `host:5000/org/image:tag`, `image@sha256:…`: only a digest is pinned. */
export function dockerImage(arg: string): McpPackageRef {
  const [ref, digest] = arg.split('@', 2) as [string, string | undefined];
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  const hasTag = colon > slash;
  const name = hasTag ? ref.slice(0, colon) : ref;
  const tag = hasTag ? ref.slice(colon + 1) : undefined;
  if (digest && /^sha256:[a-f0-9]{64}$/.test(digest)) return { ecosystem: 'docker', name, spec: digest, version: digest, pinned: true };
  return { ecosystem: 'docker', name, spec: tag ?? 'latest', pinned: false };
}
