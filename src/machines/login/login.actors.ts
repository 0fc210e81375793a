import { codeEntryMachine } from '../codeEntry/codeEntry.machine.ts';
import { callsOf, signingIn } from '../shared/binding.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { formRules } from '../shared/rules.ts';
import { loginMachine } from './login.machine.ts';

/** The login chart with its rules and its code entry: what every use of it, tests included, starts from. */
export const loginLogic = loginMachine.provide({ guards: formRules, actors: { codeEntry: codeEntryMachine } });

export const bindLogin = (deps: FlowDeps) =>
  loginLogic.provide({
    actors: callsOf(deps.accounts, { submitCredentials: 'login', submitCode: 'twoFactorLogin' }),
    actions: signingIn(deps),
  });
