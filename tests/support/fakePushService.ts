import type { PushPermission, PushService, PushSupport } from '../../src/services/push.ts';

type Answer<T> = { resolve: (value: T) => void; reject: (error: unknown) => void };

/**
 * A push service the test drives: the browser's support and permission as given, a prompt answered by hand,
 * registrations answered by hand, resets recorded.
 */
export function fakePush({ supported = true, permission = 'default' as PushPermission } = {}) {
  const state = { permission };
  const prompts: Answer<PushPermission>[] = [];
  const registrations: Array<{ username: string } & Answer<void>> = [];
  const resets: number[] = [];
  const service = {
    support: vi.fn(async (): Promise<PushSupport> => (supported ? 'supported' : 'unsupported')),
    permission: vi.fn(async () => state.permission),
    requestPermission: vi.fn(
      () =>
        new Promise<PushPermission>((resolve, reject) =>
          prompts.push({
            resolve: (answer) => {
              state.permission = answer;
              resolve(answer);
            },
            reject,
          }),
        ),
    ),
    register: vi.fn((username: string) => new Promise<void>((resolve, reject) => registrations.push({ username, resolve, reject }))),
    registeredUserId: vi.fn(async () => null),
    reset: vi.fn(async () => void resets.push(resets.length)),
  } satisfies PushService;
  return { service: service as PushService, spies: service, prompts, registrations, resets };
}
