import Ajv, { type ValidateFunction } from 'ajv';
import { TOOL_CONTRACTS, type ToolContract } from './contracts';

/** Each compiled once, on first use (not at load: every command-line start would pay): a bad argument is refused before anything runs. */
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(contract: ToolContract): ValidateFunction {
  let fn = compiled.get(contract.name);
  if (!fn) {
    fn = (ajv ??= new Ajv({ allErrors: true, strict: true })).compile(contract.inputSchema);
    compiled.set(contract.name, fn);
  }
  return fn;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; error: string };

/** Checks a tool's input against its contract; the error names every bad argument. */
export function validateToolInput<T>(name: string, input: unknown): Validation<T> {
  const contract = TOOL_CONTRACTS.find((c) => c.name === name);
  if (!contract) return { ok: false, error: `Unknown Alfred tool "${name}".` };
  const validate = validatorFor(contract);
  if (validate(input)) return { ok: true, value: input as T };
  const problems = (validate.errors ?? []).map((e) => {
    const where = e.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, '.')}"` : 'input';
    if (e.keyword === 'additionalProperties') return `unknown argument "${String(e.params.additionalProperty)}"`;
    if (e.keyword === 'required') return `missing argument "${String(e.params.missingProperty)}"`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
  return { ok: false, error: `Invalid arguments for ${name}: ${problems.join('; ')}. Nothing was run.` };
}
