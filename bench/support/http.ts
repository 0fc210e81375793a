import { Agent, request } from 'node:http';

/**
 * A keep-alive JSON POST for the load generators: `node:http` straight, so the generator's own cost
 * stays small and every client reuses its connection.
 */
export function createPoster(maxSockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets });
  function post(base: URL, path: string, token: string, body: unknown): Promise<{ status: number; text: string }> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path,
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
  return { post, close: () => agent.destroy() };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
