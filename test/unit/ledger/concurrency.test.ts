import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stateDir } from '../../../src/core/base/state/paths';
import { concurrencySuite } from './suites/concurrencySuite';

concurrencySuite({
  freshState: (home) => stateDir(fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-ws-')), { ALFRED_HOME: home }),
  env: () => ({}),
});
