import type { ElkNode } from 'elkjs/lib/elk-api.js';
import workerUrl from 'elkjs/lib/elk-worker.min.js?url';
import type { Elk } from './layout.ts';

type Answer = { id: number; data?: ElkNode; error?: { message?: string } };

/**
 * ELK in a web worker, spoken to in elkjs's own worker protocol (`register`, then `layout`): a big chart is laid
 * out off the page's main thread, and the atlas's chunk carries none of elkjs's CommonJS code (its `require`
 * helper would land in the runtime chunk every first page loads).
 */
export function createWorkerElk(): Elk {
  const worker = new Worker(workerUrl);
  let nextId = 0;
  const waiting = new Map<number, { resolve: (data: ElkNode) => void; reject: (error: Error) => void }>();
  worker.onmessage = ({ data }: MessageEvent<Answer>) => {
    const call = waiting.get(data.id);
    if (!call) return;
    waiting.delete(data.id);
    if (data.error) call.reject(new Error(data.error.message ?? 'the layout failed'));
    else call.resolve(data.data as ElkNode);
  };
  worker.onerror = (event) => {
    for (const call of waiting.values()) call.reject(new Error(event.message || 'the layout worker failed'));
    waiting.clear();
  };
  const send = (message: Record<string, unknown>) =>
    new Promise<ElkNode>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  const registered = send({ cmd: 'register', algorithms: ['layered'] });
  return { layout: (graph) => registered.then(() => send({ cmd: 'layout', graph, layoutOptions: {}, options: {} })) };
}
