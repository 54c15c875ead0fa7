import { alfredChecks, doctorText, hookSocketFor, probeProviders, type DoctorCheck } from '../../core/doctor/report';
import { clientVersions } from '../../core/protect/clientVersions';
import { readHealthFromDisk } from '../../core/integrations/health/readHealth';
import { parseProviders, problemLabel } from '../../core/models/providers/config';
import { resolveKey } from '../../core/models/providers/keys';
import { listModels } from '../../core/models/providers/stream';
import { PROVIDERS_FILE, publishedJsonReader } from '../../core/base/state/published';
import { openHarness } from '../context';
import { json } from '../io';
import type { CliCommand } from './command';

/**
 * `alfred doctor [--json]`: the providers the editor published (keys as references: `$VAR` is read
 * from this environment, a `secret:` key lives in the editor and is reported as such) probed in
 * parallel, and Alfred's health. Exit 1 when a check failed.
 */
export const doctorCommand: CliCommand = {
  name: 'doctor',
  usage: 'alfred doctor [--json]',
  async run(args, io) {
    const harness = await openHarness(args.workspace);
    const { providers, problems } = parseProviders(publishedJsonReader<unknown>(harness.stateDir, PROVIDERS_FILE, [])(), 'alfred.providers (published by the editor)');
    const report = {
      providers: [
        ...problems.map((p): DoctorCheck => ({ name: problemLabel(p), state: 'fail', detail: p.message })),
        ...await probeProviders(providers, {
          key: async (provider) => {
            if (provider.key.kind === 'none') return { ok: true, key: undefined };
            if (provider.key.kind === 'secret') return { ok: false, reason: `secret:${provider.key.name} is kept in the editor's secret storage: run "Alfred: Doctor" there` };
            const key = await resolveKey(provider.key, { env: process.env, secret: () => Promise.resolve(undefined) });
            return key.ok ? { ok: true, key: key.key } : key;
          },
          list: (provider, key, signal) => listModels(provider, key, signal),
        }),
      ],
      alfred: await alfredChecks({
        harness, governance: readHealthFromDisk(harness, { settings: {}, trusted: true }), hookSocket: hookSocketFor(harness.env), clients: await clientVersions(process.env),
      }),
    };
    io.out(args.json ? json(report) : doctorText(report));
    return [...report.providers, ...report.alfred].some((c) => c.state === 'fail') ? 1 : 0;
  },
};
