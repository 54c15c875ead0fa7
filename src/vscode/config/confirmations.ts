import type { WritePlan } from '../../core/base/config/types';
import type { HarnessHost } from '../harnessHost';
import { reviewInPanel } from '../webviews/confirmPanel';

/**
 * How a planned configuration write is put to the user: the confirmation panel. Integration tests
 * replace `review` through the extension's API (as they replace prompts.confirm), to confirm or
 * cancel without a webview.
 */
export const confirmations = {
  review(host: HarnessHost, plan: WritePlan): Promise<boolean> {
    return reviewInPanel(host.extensionUri, plan, host.require().stateDir);
  },
};
