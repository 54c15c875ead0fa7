import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { observeShellSuite } from './suites/observeShellSuite';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'alfred-observe-'));

observeShellSuite(tmp);
