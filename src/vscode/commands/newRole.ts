import { emptyDraft } from '../../core/rules/roles/draft';
import { openRoleEditor } from '../webviews/roleEditorPanel';
import type { AlfredCommand } from './command';

/** Alfred: New Role — the role editor with an empty form (optionally inheriting from a given role). */
export const newRole: AlfredCommand = {
  id: 'alfred.newRole',
  run({ host }, inherits?: unknown) {
    openRoleEditor(host, { mode: 'new', form: emptyDraft('project', typeof inherits === 'string' ? inherits : '') });
    return true;
  },
};
