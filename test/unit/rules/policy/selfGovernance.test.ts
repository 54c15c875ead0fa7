import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alfredMutationIn } from '../../../../src/core/rules/policy/selfGovernance';

describe('alfredMutationIn', () => {
  it('names Alfred\'s mutating command line however the line spells it', () => {
    assert.equal(alfredMutationIn('alfred reset'), 'alfred reset');
    assert.equal(alfredMutationIn('"$HOME/.alfred/bin/alfred" role admin'), 'alfred role NAME (a role switch)');
    assert.equal(alfredMutationIn('ALFRED_ROLE=reviewer alfred hook PreToolUse < call.json'), 'alfred hook');
  });

  it('reads a word split by quotes or backslashes as the shell joins it', () => {
    assert.equal(alfredMutationIn("al''fred reset"), 'alfred reset');
    assert.equal(alfredMutationIn('al""fred role admin'), 'alfred role NAME (a role switch)');
    assert.equal(alfredMutationIn('"al"fred serve &'), 'alfred serve');
    assert.equal(alfredMutationIn('al\\fred reset'), 'alfred reset');
    // bash's ANSI-C and locale quoting: `$'read'` runs read.
    assert.equal(alfredMutationIn("$'alfred' reset"), 'alfred reset');
    assert.equal(alfredMutationIn("$'read' ALFRED_ROLE <<< admin; export ALFRED_ROLE; claude -p hi"), "a command that sets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn('$"read" ALFRED_ROLE <<< admin; export ALFRED_ROLE'), "a command that sets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn('ALF""RED_ROLE=admin claude -p hi'), "a command that sets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn("ALF'RED'_ROLE=admin claude -p hi"), "a command that sets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn('declare -x ALF""RED_ROLE=admin; claude -p hi'), "a command that sets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn('ALF\\RED_SANDBOX=off copilot -p hi'), "a command that sets ALFRED_SANDBOX, one of Alfred's own variables, for what it starts");
    assert.equal(alfredMutationIn('env -u ALF""RED_ROLE codex exec hi'), "a command that unsets ALFRED_ROLE, one of Alfred's own variables, for what it starts");
  });

  it('refuses a variable set through env, export or declare under a name the line computes', () => {
    const computed = (word: string) => `${word} with a variable whose name the command computes (it may be one of Alfred's own)`;
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; env "$V=admin" claude -p hi'), computed('env'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; /usr/bin/env -i "${V}=admin" claude -p hi'), computed('env'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; export "$V=admin"; claude -p hi'), computed('export'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; declare -x "$V"=admin; claude -p hi'), computed('declare'));
    assert.equal(alfredMutationIn('f() { local $1=admin; claude -p hi; }; f ALFRED_ROLE'), computed('local'));
  });

  it('refuses the builtins that assign the variable they are named, and a name the line computes', () => {
    const sets = (name: string) => `a command that sets ${name}, one of Alfred's own variables, for what it starts`;
    const computed = (word: string) => `${word} with a variable whose name the command computes (it may be one of Alfred's own)`;
    // Each of these, run by bash with `env` in place of the agent, hands it ALFRED_ROLE=admin (getopts: the option's letter).
    assert.equal(alfredMutationIn('printf -v ALFRED_ROLE admin; export ALFRED_ROLE; claude -p hi'), sets('ALFRED_ROLE'));
    assert.equal(alfredMutationIn('read ALFRED_ROLE <<< admin; export ALFRED_ROLE; claude -p hi'), sets('ALFRED_ROLE'));
    assert.equal(alfredMutationIn('IFS= read -r -d "" ALFRED_SANDBOX < off.txt; export ALFRED_SANDBOX'), sets('ALFRED_SANDBOX'));
    assert.equal(alfredMutationIn('for ALFRED_ROLE in admin; do export ALFRED_ROLE; claude -p hi; done'), sets('ALFRED_ROLE'));
    assert.equal(alfredMutationIn('declare -n r=ALFRED_ROLE; r=admin; export r; claude -p hi'), sets('ALFRED_ROLE'));
    assert.equal(alfredMutationIn('set -- -9; getopts 9 ALFRED_STOP_MAX_BLOCKS; export ALFRED_STOP_MAX_BLOCKS'), sets('ALFRED_STOP_MAX_BLOCKS'));
    assert.equal(alfredMutationIn("bash -c 'read ALFRED_ROLE <<< admin; export ALFRED_ROLE; claude -p hi'"), sets('ALFRED_ROLE'));
    // The reason names what the line does first.
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; printf -v "$V" admin; export "${V?}"; claude -p hi'), computed('printf -v'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; read -r "$V" <<< admin; export "$V"; claude -p hi'), computed('read'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; declare -n r="$V"; r=admin; export "$V"'), computed('declare'));
    assert.equal(alfredMutationIn('V=ALFRED_ROLE; eval "$V=admin"; export "$V"'), computed('eval'));
    assert.equal(alfredMutationIn('eval "export $V=admin"'), computed('eval'));
    assert.equal(alfredMutationIn('export "$V"; claude -p hi'), computed('export'));
    assert.equal(alfredMutationIn('export ${V?}'), computed('export'));
  });

  it('lets a command read Alfred\'s variables and set other ones', () => {
    for (const command of [
      'echo $ALFRED_ROLE',
      'echo "$ALFRED_ROLE"',
      'echo "${ALFRED_ROLE:-none}"',
      'test "$ALFRED_ROLE" == coder && echo yes',
      '[[ $ALFRED_ROLE = coder ]]',
      'printenv ALFRED_ROLE',
      'env | grep ALFRED_',
      'export PATH="$HOME/bin:$PATH" && npm test',
      'env NODE_ENV=test FOO="$BAR" npm test',
      'local_dir=$(pwd); export DIR="$local_dir"',
      'export $(grep -v "^#" .env.example | xargs) && npm start',
      'env "$@"',
      "git commit -m 'alfredo'\"'\"'s fix'",
      'cat src/alfred/hook.ts',
      'npm run alfred:build',
      "echo 'don''t' \"stop\"",
      'while IFS= read -r line; do echo "$line"; done < notes.txt',
      'read -r a b <<< "$ALFRED_ROLE"',
      'for f in src/*.ts; do wc -l "$f"; done',
      "printf -v now '%(%s)T' -1; echo $now",
      'declare -n ref=results; ref+=(ok)',
      'grep -rn ALFRED_ROLE src',
      'echo "please read ALFRED_ROLE first"',
      'eval "$(ssh-agent -s)"',
      'mapfile -t files < <(git ls-files)',
    ]) assert.equal(alfredMutationIn(command), undefined, command);
  });
});
