/**
 * Which package an MCP server's command starts: npx, `npm exec` / `npm x`, `pnpm dlx` / pnpx, `yarn dlx`,
 * bunx / `bun x`, uvx / `uv tool run`, `docker run` / `podman run`. A command that is none of these
 * (`node server.js`, a binary) runs local code: no package.
 */
import { dockerImage, npmPackage, pypiPackage } from './npmSpec';
import type { McpPackageRef } from './types';

/** The program's own name: `/usr/bin/npx`, `npx.cmd` and `NPX.EXE` are all npx. */
export function programName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.toLowerCase().replace(/\.(cmd|exe|ps1|bat)$/, '');
}

interface Scan {
  /** The first positional argument after the options (the package, or the command run with --package). */
  positional?: string;
  /** Values of the options that name the package (`--package`, `-p`, `--from`). */
  packages: string[];
}

/**
 * Reads options up to the first positional. `valued` options take the next argument (unless written
 * `--opt=value`); `packageOpts` among them name the package. `--` ends the options.
 */
function scan(args: readonly string[], valued: ReadonlySet<string>, packageOpts: ReadonlySet<string>): Scan {
  const packages: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { positional: args[i + 1], packages };
    if (!a.startsWith('-') || a === '-') return { positional: a, packages };
    const eq = a.indexOf('=');
    const opt = eq === -1 ? a : a.slice(0, eq);
    const value = eq === -1 ? (valued.has(opt) ? args[++i] : undefined) : a.slice(eq + 1);
    if (packageOpts.has(opt) && value !== undefined) packages.push(value);
  }
  return { packages };
}

const NPX_VALUED = new Set(['-p', '--package', '-c', '--call', '-w', '--workspace', '--registry', '--cache', '--userconfig', '--prefix']);
const NPX_PACKAGE = new Set(['-p', '--package']);
const UV_VALUED = new Set(['--from', '--with', '--with-editable', '--with-requirements', '-p', '--python', '--index', '--index-url', '--default-index',
  '--extra-index-url', '-i', '--find-links', '-f', '--directory', '--project', '--config-file', '--cache-dir', '--constraints', '--overrides',
  '--env-file', '--python-platform', '--exclude-newer']);
const UV_PACKAGE = new Set(['--from']);
const DOCKER_VALUED = new Set(['-e', '--env', '--env-file', '-v', '--volume', '--mount', '--name', '-p', '--publish', '--network', '--net',
  '-w', '--workdir', '-u', '--user', '--entrypoint', '-l', '--label', '--label-file', '--platform', '--pull', '--cpus', '-m', '--memory',
  '--add-host', '-h', '--hostname', '--cap-add', '--cap-drop', '--device', '--dns', '--gpus', '--ipc', '--log-driver', '--log-opt',
  '--restart', '--runtime', '--security-opt', '--shm-size', '--tmpfs', '--ulimit', '--cidfile', '--expose', '--group-add', '--init-path',
  '--mac-address', '--pid', '--stop-signal', '--stop-timeout', '--userns', '--uts', '--volumes-from', '-a', '--attach', '--health-cmd',
  '--memory-swap', '--cgroupns', '--ip', '--ip6', '--link', '--network-alias', '--storage-opt', '--sysctl']);

/** npx-style argument lists: the package is `--package`'s value when given, else the first positional. */
function npxLike(args: readonly string[], valued = NPX_VALUED, packageOpts = NPX_PACKAGE): McpPackageRef | undefined {
  const s = scan(args, valued, packageOpts);
  const arg = s.packages[0] ?? s.positional;
  return arg === undefined ? undefined : npmPackage(arg);
}

/** The subcommand after the tool's own options (`npm --yes exec …`, `pnpm --silent dlx …`). */
function subcommand(args: readonly string[], names: readonly string[]): { rest: string[]; options: string[] } | undefined {
  const at = args.findIndex((a) => !a.startsWith('-'));
  if (at === -1 || !names.includes(args[at]!)) return undefined;
  return { options: args.slice(0, at), rest: args.slice(at + 1) };
}

function uvx(args: readonly string[]): McpPackageRef | undefined {
  const s = scan(args, UV_VALUED, UV_PACKAGE);
  const arg = s.packages[0] ?? s.positional;
  return arg === undefined ? undefined : pypiPackage(arg);
}

function dockerRun(args: readonly string[]): McpPackageRef | undefined {
  const sub = subcommand(args, ['run', 'container']);
  if (!sub) return undefined;
  let rest = sub.rest;
  if (args[sub.options.length] === 'container') {
    if (rest[0] !== 'run') return undefined;
    rest = rest.slice(1);
  }
  const image = scan(rest, DOCKER_VALUED, new Set()).positional;
  return image === undefined ? undefined : dockerImage(image);
}

/** The package a server's command line starts, or undefined when it starts none. */
export function packageOfLaunch(command: string, args: readonly string[]): McpPackageRef | undefined {
  switch (programName(command)) {
    case 'npx':
    case 'bunx':
    case 'pnpx':
      return npxLike(args);
    case 'npm': {
      const sub = subcommand(args, ['exec', 'x']);
      return sub ? npxLike([...sub.options, ...sub.rest]) : undefined;
    }
    case 'pnpm':
    case 'yarn': {
      const sub = subcommand(args, ['dlx']);
      return sub ? npxLike([...sub.options, ...sub.rest]) : undefined;
    }
    case 'bun': {
      const sub = subcommand(args, ['x']);
      return sub ? npxLike(sub.rest) : undefined;
    }
    case 'uvx':
      return uvx(args);
    case 'uv': {
      if (args[0] !== 'tool' || args[1] !== 'run') return undefined;
      return uvx(args.slice(2));
    }
    case 'docker':
    case 'podman':
      return dockerRun(args);
    default:
      return undefined;
  }
}
