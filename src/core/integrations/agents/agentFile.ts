/**
 * A role as a Copilot custom agent (`.github/agents/alfred-ROLE.agent.md`): YAML frontmatter with the
 * description, the tools the role's policy lets through (from the tools that exist) and the failover
 * profile's models, then a body that states the role's rules and limits in plain words. The agent file
 * narrows what Copilot offers the model; Alfred's hooks still decide every call.
 */
import { categoryOf } from '../../rules/vocabulary/categories';
import { rolePermits } from '../../rules/policy/gate';
import type { Role, ShellPolicy } from '../../rules/roles/types';

/** A tool as `vscode.lm.tools` lists it: its id, and the name agent files use for it. */
export interface AvailableTool {
  /** The tool's id (`copilot_readFile`, `run_in_terminal`, `ctx_read`): the name role patterns are written for. */
  name: string;
  /** `fullReferenceName` (`read/readFile`, `execute/runInTerminal`); tools without one cannot be named in an agent file. */
  referenceName?: string;
}

export interface AgentFileInput {
  role: Role;
  tools: readonly AvailableTool[];
  /** Qualified model names (`Claude Sonnet 4.5 (copilot)`), in failover order; none: no `model:` key. */
  models?: readonly string[];
  /** The failover profile the models come from, named in the body. */
  profile?: string;
}

export const AGENTS_DIR = '.github/agents';

export function agentFileName(role: string): string {
  return `alfred-${role}.agent.md`;
}

/**
 * Whether the role's policy lets a tool through. The id decides; the reference name can only narrow
 * it (a known category there that the role refuses wins, as denied always does), never widen it.
 */
export function toolPermitted(role: Role, tool: AvailableTool): boolean {
  if (!rolePermits(role, tool.name)) return false;
  const ref = tool.referenceName;
  return ref === undefined || categoryOf(ref) === 'other' || rolePermits(role, ref);
}

/** The `tools:` entries: the reference names of the permitted tools, sorted so the file is stable. */
export function permittedToolNames(role: Role, tools: readonly AvailableTool[]): string[] {
  const names = new Set<string>();
  for (const tool of tools) {
    if (tool.referenceName && toolPermitted(role, tool)) names.add(tool.referenceName);
  }
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One line of text: line breaks, control characters and YAML's odd separators become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * A YAML double-quoted scalar. JSON's string syntax is a subset of it, so any text (colons, `#`,
 * quotes, a leading `-` or `*`, non-ASCII) stays a plain string.
 */
export function yamlString(text: string): string {
  return JSON.stringify(text);
}

function yamlList(key: string, items: readonly string[]): string {
  if (items.length === 0) return `${key}: []`;
  return [`${key}:`, ...items.map((i) => `  - ${yamlString(i)}`)].join('\n');
}

export function agentDescription(role: Role): string {
  const own = oneLine(role.description);
  const governed = `Governed by Alfred: role ${role.name}'s tool rules and budget are enforced by its hooks.`;
  return own ? `${own}${/[.!?]$/.test(own) ? '' : '.'} ${governed}` : governed;
}

/** The whole `.agent.md` text. */
export function agentFile(input: AgentFileInput): string {
  const { role } = input;
  const header = [
    '---',
    `name: ${yamlString(`alfred-${role.name}`)}`,
    `description: ${yamlString(agentDescription(role))}`,
    yamlList('tools', permittedToolNames(role, input.tools)),
    ...(input.models && input.models.length > 0 ? [yamlList('model', input.models.map(oneLine))] : []),
    '---',
  ];
  return `${header.join('\n')}\n\n${body(input)}`;
}

const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
const list = (patterns: readonly string[]): string => patterns.map(code).join(', ');
const count = (n: number): string => Math.round(n).toLocaleString('en-US');

const SHELL_WORDS: Record<ShellPolicy, string> = {
  deny: 'You may not run shell commands: every terminal or shell tool is refused, whatever its name.',
  track: 'You may run shell commands; each one is counted against the budget and logged.',
  compress: 'You may run shell commands; each one is counted and logged, and long output is shortened (head and tail kept, repeated lines folded).',
};

function toolRule(role: Role): string {
  const { allowed, denied } = role.tools;
  const parts: string[] = [];
  if (allowed === undefined) parts.push('You may use every tool');
  else if (allowed.length === 0) parts.push('You may use no tool at all (only `ctx_session`, to read the budget)');
  else parts.push(`You may use only the tools matching ${list(allowed)}`);
  if (denied.length > 0) parts.push(`${allowed === undefined ? ' except' : ', and never'} those matching ${list(denied)} (a denied pattern always wins)`);
  return `${parts.join('')}. \`@read\`, \`@edit\`, \`@shell\` and the like name whole categories of tools, whatever the tool is called.`;
}

function body(input: AgentFileInput): string {
  const { role } = input;
  const l = role.limits;
  const lines = [
    `# Alfred role: ${role.name}`,
    '',
    `You work under Alfred's role **${role.name}**${oneLine(role.description) ? `: ${oneLine(role.description)}` : ''}.`,
    '',
    '## Rules',
    '',
    `- ${toolRule(role)}`,
    `- ${SHELL_WORDS[role.shellPolicy]}`,
    '- You may not edit Alfred\'s own files (role files, `.github/hooks/alfred.json`, `.alfred/checks.toml`), files outside the workspace, or paths the acceptance checks protect.',
    '',
    '## Limits (this budget session)',
    '',
    `- Context tokens (tokens in tool outputs): ${count(l.maxContextTokens)}`,
    `- Shell commands: ${count(l.maxShellInvocations)}`,
    `- Estimated cost: $${l.maxCostUsd.toFixed(2)}`,
    `- From ${l.warnAtPercent}% of any limit, results carry a budget warning; at ${l.blockAtPercent}% every tool call is refused except \`ctx_session\`.`,
    ...(input.profile ? ['', `Models come from Alfred's failover profile **${input.profile}**, first available first.`] : []),
    '',
    '## How Alfred enforces this',
    '',
    'These rules are not a request: Alfred enforces them outside the model. Its hooks see every tool call before it runs, '
      + 'refuse what the role does not allow, and charge every result to the budget. A refused call comes back as '
      + '"Tool execution denied" with the reason: do not retry it; do the work with the tools you have, or ask the user '
      + 'to switch role.',
    '',
    `Alfred's hooks apply the workspace's active role; this agent is meant for when **${role.name}** is active. `
      + `If \`ctx_session\` reports another role, ask the user to switch (\`ctx_session\` with action "role" and value "${role.name}"; the user confirms).`,
    '',
    'Call `ctx_session` with action "budget" (always allowed, even when the budget is exhausted) to read the budget line: '
      + 'tokens, shell commands and cost used against these limits. Read it before costly work.',
    '',
  ];
  return lines.join('\n');
}
