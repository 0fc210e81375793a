import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { shared } from './shared.ts';

/**
 * A periodic job: a feature's tick (sweep the payment windows, poll the chain, deliver pushes, move prices) on
 * a timer. app.ts lists every job; the tick itself is the feature's service, callable by hand (tests) as well.
 */
export interface JobSpec<Result = unknown> {
  /** Names the job in the log lines. */
  name: string;
  /**
   * Milliseconds from the end of one tick to the start of the next; a function gets the last tick's result
   * (undefined after a failure), for a job that hurries while there is work. 0: never on the timer.
   */
  everyMs: number | ((last: Result | undefined) => number);
  tick(): Promise<Result>;
  /** After a tick that succeeded: a log line when it did something worth one. */
  report?(result: Result, log: FastifyBaseLogger): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/**
 * A round that never overlaps itself in this process: a caller while one runs gets that one's promise, and
 * `current()` says which runs (to wait for it on close).
 */
export function oneAtATime<Result>(round: () => Promise<Result>) {
  let running: Promise<Result> | undefined;
  const run = (): Promise<Result> => {
    if (running) return running;
    const started = round();
    running = started;
    const done = () => {
      if (running === started) running = undefined;
    };
    started.then(done, done);
    return started;
  };
  return { run, current: () => running };
}

/**
 * Stops a service that jobs drive, and then what it reads from (its adapter), when the app closes. preClose
 * runs after the jobs' (this plugin's) and before the database plugin's onClose, so no round ever meets a
 * closed adapter or database.
 */
export function stopBeforeTheDatabase(app: FastifyInstance, ...steps: (() => Promise<void>)[]) {
  app.addHook('preClose', async () => {
    for (const step of steps) await step();
  });
}

export interface Jobs {
  /** Adds a job (app.ts lists them all); it starts once the app is ready. */
  add<Result>(spec: JobSpec<Result>): void;
  /**
   * A tick of job `name` soon (after `delayMs`), coalesced with one already due sooner; nothing while the job
   * is off (its period is 0) or unknown. A kick while a tick runs makes the next follow it this soon, since the
   * running tick may have missed what prompted the kick.
   */
  kick(name: string, delayMs: number): void;
}

/**
 * Tier 0: the periodic jobs, started once the app is ready and stopped first when it closes (this preClose
 * hook runs before those of the features registered after it), so no tick starts against a closing service and
 * a tick in flight finishes against an open database. A job never overlaps with itself, since the next tick is
 * timed from the end of the last; a failing tick is logged and the next one tries again; the timers are
 * unref'd, so they alone never keep a process alive that is otherwise done.
 */
export const jobsPlugin = shared('peerex-jobs', async (app) => {
  const kicks = new Map<string, (delayMs: number) => void>();
  const stops: (() => Promise<void>)[] = [];
  app.decorate('jobs', {
    add<Result>(spec: JobSpec<Result>) {
      if (kicks.has(spec.name)) throw new Error(`two jobs named ${spec.name}`);
      const period = (last: Result | undefined) => (typeof spec.everyMs === 'number' ? spec.everyMs : spec.everyMs(last));
      const on = period(undefined) > 0;
      let timer: NodeJS.Timeout | undefined;
      let dueAt = Infinity;
      let running: Promise<void> | undefined;
      let kickedDelay: number | undefined;
      let stopped = false;

      const schedule = (delayMs: number) => {
        if (!on || stopped || delayMs <= 0) return;
        clearTimeout(timer);
        dueAt = Date.now() + delayMs;
        timer = setTimeout(run, delayMs);
        timer.unref();
      };
      function run() {
        timer = undefined;
        dueAt = Infinity;
        kickedDelay = undefined;
        running = spec
          .tick()
          .then(
            (result) => {
              spec.report?.(result, app.log);
              return result;
            },
            (error: unknown) => {
              app.log.error({ err: error, job: spec.name }, `${spec.name} failed`);
              return undefined;
            },
          )
          .then((last) => {
            running = undefined;
            schedule(kickedDelay ?? period(last));
          });
      }

      kicks.set(spec.name, (delayMs) => {
        if (!on || stopped) return;
        if (running) kickedDelay = Math.min(kickedDelay ?? Infinity, delayMs);
        else if (Date.now() + delayMs < dueAt) schedule(delayMs);
      });
      if (on) app.addHook('onReady', async () => schedule(period(undefined)));
      stops.push(async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
      });
    },
    kick(name, delayMs) {
      kicks.get(name)?.(delayMs);
    },
  } satisfies Jobs);
  app.addHook('preClose', async () => {
    await Promise.all(stops.map((stop) => stop()));
  });
});
