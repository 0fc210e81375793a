import { bindDashboard } from './dashboard/dashboard.actors.ts';
import { bindLogin } from './login/login.actors.ts';
import { bindOfferBrowser } from './offerBrowser/offerBrowser.actors.ts';
import { bindOfferForm } from './offerForm/offerForm.actors.ts';
import { bindPasswordReset } from './passwordReset/passwordReset.actors.ts';
import type { FlowDeps } from './shared/deps.ts';
import { bindSignup } from './signup/signup.actors.ts';
import { bindTwoFactor } from './twoFactor/twoFactor.actors.ts';

/** Every screen flow with its services bound; routes start an actor from one of these. */
export const bindFlows = (deps: FlowDeps) => ({
  login: bindLogin(deps),
  signup: bindSignup(deps),
  passwordReset: bindPasswordReset(deps),
  twoFactor: bindTwoFactor(deps),
  dashboard: bindDashboard(deps),
  offerBrowser: bindOfferBrowser(deps),
  offerForm: bindOfferForm(deps),
});

export type Flows = ReturnType<typeof bindFlows>;
