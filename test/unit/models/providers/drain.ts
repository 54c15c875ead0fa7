import { ProviderError, type ResponsePart } from '../../../../src/core/models/providers/types';

/** Every part of a response stream, and the ProviderError that ended it if one did (anything else is rethrown). */
export async function drain(stream: AsyncIterable<ResponsePart>, onPart?: (part: ResponsePart) => void): Promise<{ parts: ResponsePart[]; error: ProviderError | undefined }> {
  const parts: ResponsePart[] = [];
  try {
    for await (const part of stream) {
      parts.push(part);
      onPart?.(part);
    }
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    return { parts, error: e };
  }
  return { parts, error: undefined };
}
