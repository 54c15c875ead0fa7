/** Trial worktrees: detached and clean at the start commit, removed with their changes, leftovers swept. */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { addWorktree, removeLeftovers, removeWorktree, resolveStart } from '../../../src/core/trials/worktree';
import { fixtureRepo, git } from './runnerSupport';

const listed = (repo: string): string[] => git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((l) => l.startsWith('worktree ')).map((l) => l.slice('worktree '.length));

describe('trial worktrees', () => {
  it('a worktree starts clean and detached at the start commit, even when the repository has moved on, and goes with its changes', async () => {
    const { repo, root } = fixtureRepo();
    const start = await resolveStart(repo, 'HEAD');
    assert.equal(start, git(repo, 'rev-parse', 'HEAD'));
    fs.writeFileSync(path.join(repo, 'src/add.js'), 'module.exports = () => 0;\n');
    git(repo, 'commit', '-q', '-am', 'moved on');
    fs.writeFileSync(path.join(repo, 'uncommitted.txt'), 'not in any trial\n');

    const dir = path.join(root, 'trials', 'worktrees', 'one');
    await addWorktree(repo, dir, start);
    assert.equal(git(dir, 'rev-parse', 'HEAD'), start);
    assert.equal(git(dir, 'status', '--porcelain'), '');
    assert.equal(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD', 'detached');
    assert.match(fs.readFileSync(path.join(dir, 'src/add.js'), 'utf8'), /a - b/);
    assert.equal(fs.existsSync(path.join(dir, 'uncommitted.txt')), false);

    fs.writeFileSync(path.join(dir, 'src/add.js'), 'changed by the trial\n');
    await removeWorktree(repo, dir);
    assert.equal(fs.existsSync(dir), false);
    assert.deepEqual(listed(repo), [repo]);
  });

  it('a crashed run\'s worktrees are swept before the next run, and a start that is not a commit is named', async () => {
    const { repo, root } = fixtureRepo();
    const start = await resolveStart(repo, 'main');
    const worktrees = path.join(root, 'trials', 'worktrees');
    await addWorktree(repo, path.join(worktrees, 'a'), start);
    await addWorktree(repo, path.join(worktrees, 'b'), start);
    fs.writeFileSync(path.join(worktrees, 'a', 'half-done.txt'), 'x');
    assert.equal(listed(repo).length, 3);

    const removed = await removeLeftovers(repo, worktrees);
    assert.deepEqual(removed.map((d) => path.basename(d)).sort(), ['a', 'b']);
    assert.deepEqual(listed(repo), [repo]);
    assert.deepEqual(fs.readdirSync(worktrees), []);
    assert.deepEqual(await removeLeftovers(repo, path.join(root, 'nothing-here')), []);
    await assert.rejects(resolveStart(repo, 'no-such-ref'), { message: `start "no-such-ref" is not a commit of ${repo}` });
  });
});
