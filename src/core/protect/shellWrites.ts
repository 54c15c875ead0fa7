/**
 * Which files a shell command line visibly writes: redirections (`>`, `>>`, `&>`, `>|`, `N>`) and the
 * targets of `rm`, `rmdir`, `unlink`, `mv`, `cp`, `tee`, `touch`, `truncate`, `sed -i`, `dd of=`.
 * BEST EFFORT: it reads the words as a POSIX shell would split them (quotes, escapes, `;`, `&&`,
 * `||`, `|`, `&`, subshell parentheses, `cd DIR` between commands), but it cannot see through
 * variables, `eval`, scripts, interpreters (`node -e`, `python -c`) or programs that write by
 * themselves. It catches the plain attempts; the protected paths' real guard is that completion is
 * decided by the harness on the snapshot it identified, not by the agent.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export interface ShellWrite {
  /** The target as written (after quote removal). */
  target: string;
  /** The folder the command runs in, as far as `cd` could be followed; undefined: the start folder. */
  cwd?: string;
  /** A tree operation (rm -r, mv, wildcard): everything under the target is affected too. */
  tree: boolean;
  /** The command or operator that writes, for messages (`rm`, `>`). */
  via: string;
}

type Token = { kind: 'word'; text: string; glob: boolean } | { kind: 'op'; text: string };

const OPERATORS = ['&&', '||', ';;', '>>', '>|', '&>', '<<', '<>', ';', '|', '&', '(', ')', '>', '<', '\n'];
const SEPARATORS = new Set([';', '&&', '||', '|', '&', '(', ')', '\n', ';;']);
const PREFIXES = new Set(['sudo', 'command', 'exec', 'time', 'nohup', 'nice', 'builtin', 'doas', 'xargs', 'env']);

/** Splits a command line into words and operators, as sh would (no expansion). */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let word = '';
  let inWord = false;
  let glob = false;
  // Here-documents: their bodies are data, not commands (`cat > f <<EOF … EOF`).
  const heredocs: Array<{ delimiter: string; tabs: boolean }> = [];
  let heredocNext: boolean | undefined;
  const flush = (): void => {
    if (inWord) {
      tokens.push({ kind: 'word', text: word, glob });
      if (heredocNext !== undefined) heredocs.push({ delimiter: word, tabs: heredocNext });
      heredocNext = undefined;
    }
    word = '';
    inWord = false;
    glob = false;
  };
  const skipBodies = (from: number): number => {
    let at = from;
    while (heredocs.length > 0 && at < line.length) {
      const { delimiter, tabs } = heredocs[0] as { delimiter: string; tabs: boolean };
      const nl = line.indexOf('\n', at);
      const text = line.slice(at, nl === -1 ? line.length : nl);
      if ((tabs ? text.replace(/^\t+/, '') : text) === delimiter) heredocs.shift();
      at = nl === -1 ? line.length : nl + 1;
    }
    heredocs.length = 0;
    return at - 1;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === '\\' && i + 1 < line.length) {
      if (line[i + 1] !== '\n') { word += line[i + 1]; inWord = true; }
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end === -1 ? line.length : end);
      inWord = true;
      i = end === -1 ? line.length : end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1] as string)) j++;
        word += line[j];
      }
      inWord = true;
      i = j;
    } else if (c === ' ' || c === '\t') {
      flush();
    } else if (c === '#' && !inWord) {
      const nl = line.indexOf('\n', i);
      i = nl === -1 ? line.length : nl - 1;
    } else {
      // `2>` / `2>>`: a file-descriptor number right before a redirection belongs to it.
      const op = OPERATORS.find((o) => line.startsWith(o, i));
      if (op) {
        if (/^\d+$/.test(word) && inWord && (op.startsWith('>') || op === '<>')) { word = ''; inWord = false; } else flush();
        tokens.push({ kind: 'op', text: op });
        i += op.length - 1;
        if (op === '<<' && line[i + 1] !== '<') {
          heredocNext = line[i + 1] === '-';
          if (heredocNext) i++;
        } else if (op === '\n' && heredocs.length > 0) {
          i = skipBodies(i + 1);
        }
      } else {
        if ('*?['.includes(c)) glob = true;
        word += c;
        inWord = true;
      }
    }
  }
  flush();
  return tokens;
}

/** Each write the command line shows, in order. */
export function shellWrites(line: string): ShellWrite[] {
  const tokens = tokenize(line);
  const writes: ShellWrite[] = [];
  let cwd: string | undefined;
  let words: Array<Extract<Token, { kind: 'word' }>> = [];
  const endCommand = (): void => {
    const argv = stripPrefixes(words.map((w) => w.text));
    const globs = new Set(words.filter((w) => w.glob).map((w) => w.text));
    const dir = argv[1];
    if (argv[0] === 'cd' && dir !== undefined && dir !== '-') cwd = cwd === undefined || path.posix.isAbsolute(dir) || dir.startsWith('~') ? dir : path.posix.join(cwd, dir);
    for (const w of commandWrites(argv)) writes.push({ ...w, cwd, tree: w.tree || globs.has(w.target) });
    words = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'word') {
      words.push(t);
      continue;
    }
    if (SEPARATORS.has(t.text)) {
      endCommand();
      continue;
    }
    if (t.text === '>' || t.text === '>>' || t.text === '>|' || t.text === '&>' || t.text === '<>') {
      const next = tokens[i + 1];
      // `>&2`, `2>&1`: a descriptor, not a file.
      if (next?.kind === 'op' && next.text === '&') {
        i += 2;
        continue;
      }
      if (next?.kind === 'word') {
        if (!/^\/dev\/(null|std(out|err)|tty|fd\/\d+)$/.test(next.text)) writes.push({ target: next.text, cwd, tree: next.glob, via: t.text });
        i++;
      }
      continue;
    }
    if (t.text === '<' || t.text === '<<') i++; // input: the next word is read, not written
  }
  endCommand();
  return writes;
}

function stripPrefixes(argv: string[]): string[] {
  let i = 0;
  for (;;) {
    const w = argv[i];
    if (w === undefined) return [];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) i++;
    else if (PREFIXES.has(path.basename(w))) {
      i++;
      while (argv[i]?.startsWith('-')) i++; // sudo -u x would take a value: best effort
    } else return argv.slice(i);
  }
}

type Found = { target: string; tree: boolean; via: string };

function commandWrites(argv: readonly string[]): Found[] {
  const name = argv[0] === undefined ? '' : path.basename(argv[0]);
  const args = argv.slice(1);
  const operands = (valueFlags: readonly string[] = []): string[] => {
    const out: string[] = [];
    let options = true;
    for (let i = 0; i < args.length; i++) {
      const a = args[i] as string;
      if (options && a === '--') options = false;
      else if (options && a.startsWith('-') && a !== '-') {
        if (valueFlags.includes(a)) i++;
      } else out.push(a);
    }
    return out;
  };
  const flags = args.filter((a) => a.startsWith('-'));
  const has = (short: string, long: string): boolean => flags.some((f) => f === long || (/^-[^-]/.test(f) && f.includes(short)));
  const found = (targets: string[], tree: boolean): Found[] => targets.map((target) => ({ target, tree, via: name }));
  switch (name) {
    case 'rm':
      return found(operands(), has('r', '--recursive') || has('R', '--recursive'));
    case 'rmdir':
    case 'unlink':
    case 'shred':
      return found(operands(), name === 'rmdir');
    case 'touch':
      return found(operands(['-d', '-r', '-t']), false);
    case 'truncate':
      return found(operands(['-s', '-r']), false);
    case 'tee':
      return found(operands(), false);
    case 'mv': {
      const t = targetDir(args);
      return found(t ? operands(['-t', '-S']).concat(t) : operands(['-S']), true);
    }
    case 'cp':
    case 'install':
    case 'ln': {
      const t = targetDir(args);
      if (t) return found([t], true);
      const ops = operands(['-S', '-m', '-o', '-g']);
      return ops.length >= 2 ? found([ops[ops.length - 1] as string], true) : [];
    }
    case 'sed':
    case 'perl': {
      if (!flags.some((f) => f === '--in-place' || f.startsWith('--in-place=') || /^-[^-]*i/.test(f))) return [];
      const scripted = flags.some((f) => f === '-e' || f === '-f' || f === '--expression' || f === '--file');
      const ops = operands(['-e', '-f', '--expression', '--file']);
      return found(scripted ? ops : ops.slice(1), false);
    }
    case 'dd':
      return found(args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)), false);
    default:
      return [];
  }
}

function targetDir(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-t' || a === '--target-directory') return args[i + 1];
    if (a.startsWith('--target-directory=')) return a.slice('--target-directory='.length);
  }
  return undefined;
}

/** A target's absolute path: `~` and `$HOME` expanded, relative to `base` and the followed `cd`s. */
export function resolveWrite(w: ShellWrite, base: string, home = os.homedir()): string {
  let target = w.target.replace(/^~(?=$|\/)/, home).replace(/^\$\{?HOME\}?(?=$|\/)/, home);
  // A wildcard stands for what its folder holds: the folder is what may be hit.
  const wild = target.search(/[*?[]/);
  if (wild !== -1) target = target.slice(0, target.lastIndexOf('/', wild) + 1) || '.';
  let dir = base;
  if (w.cwd !== undefined) dir = path.resolve(base, w.cwd.replace(/^~(?=$|\/)/, home));
  return path.resolve(dir, target);
}
