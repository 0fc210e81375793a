import { fromPromise } from 'xstate';
import { passwordConfirmMachine, type PasswordConfirmLogic } from './passwordConfirm.machine.ts';

/**
 * The password confirmation of one change: the chart with `change` bound to the call that makes it. Its output
 * carries that call's answer, so the invoking chart keeps it typed; the answer passes through the chart
 * unchanged, which is what the one cast below states.
 */
export const confirmedBy = <Result>(change: (input: { password: string }) => Promise<Result>): PasswordConfirmLogic<Result> =>
  passwordConfirmMachine.provide({ actors: { change: fromPromise(({ input }) => change(input)) } }) as PasswordConfirmLogic<Result>;
