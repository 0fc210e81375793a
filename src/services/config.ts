import { envelope, webAppConfig, type WebAppConfig } from '../../contracts/index.ts';
import { z } from 'zod/mini';

/**
 * GET /api/config at boot (docs/api.md "Realtime"): where the realtime and push servers are,
 * so one build serves every deployment. Null when it cannot be read; the app then runs without live updates.
 */
export async function loadWebAppConfig(url: string, fetchImpl: typeof fetch = fetch): Promise<WebAppConfig | null> {
  try {
    const response = await fetchImpl(url, { headers: { Accept: 'application/json' } });
    const parsed = z.safeParse(envelope(webAppConfig), await response.json());
    return parsed.success ? parsed.data.info : null;
  } catch {
    return null;
  }
}
