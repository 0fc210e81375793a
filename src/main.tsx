import './index.css';

/**
 * The entry: the app's code evaluated in stages, each in a task of its own. Evaluating a module graph is one task
 * however large it is, and on a phone the whole app (React DOM, zod and the contracts, XState, the router, the
 * services) took two hundred milliseconds at once, during which a tap on the page drawn from HTML went unanswered.
 * Each stage is a chunk of its own (vite.config.ts codeSplitting), preloaded with every page (routePages), so only
 * its evaluation waits for the stage before.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

await import('react-dom/client');
await nextTask();
// One name taken from each: a module's whole namespace would keep every export it has in the build.
await import('zod').then(({ config }) => config);
await nextTask();
await import('../contracts/common.ts').then(({ envelope }) => envelope);
await nextTask();
await import('@tanstack/react-router').then(({ createRouter }) => createRouter);
await nextTask();
const { startApp } = await import('./app.tsx');
await nextTask();
await startApp(nextTask);
