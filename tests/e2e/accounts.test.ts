import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  DAVE_SECRET,
  DEMO_PASSWORD,
  createAuthenticator,
  newPage,
  screenshot,
  toast,
  type Product,
} from './support.ts';
import { productAndBrowserPerFile } from './per-file.ts';

let product: Product;
let browser: Browser;

productAndBrowserPerFile((running) => ({ product, browser } = running));

async function login(page: Page, username: string, password: string) {
  await page.goto(`${product.baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

async function logout(page: Page) {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  // The login page remembers the page the trader left from (?redirect=…), to return there on the next sign-in.
  await page.waitForURL((url) => url.pathname === '/login');
}

describe('a new trader', () => {
  const email = `erin${Date.now()}@example.test`;
  const username = `erin${Date.now() % 100000}`;
  let password = 'first-pass-1';
  let recoveryCodes: string[] = [];

  it('signs up with the code mailed over SMTP and lands on the dashboard', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${product.baseUrl}/signup`);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(1);

    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'OTP Sent').waitFor();
    const code = await product.codeFor(email);
    await screenshot(page, 'signup-code-light');

    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await toast(page, 'Email has been verified successfully').waitFor();
    await page.getByRole('heading', { name: 'Complete your account' }).waitFor();
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();

    await page.getByLabel('Username').fill('ab');
    await page.locator('input[name="password"]').fill('123');
    await page.locator('input[name="confirmPassword"]').fill('1234');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Username must be at least 3 characters').waitFor();
    await page.getByText('Password must be at least 6 characters').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    await screenshot(page, 'signup-account-errors-light');

    await page.getByLabel('Username').fill(username);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirmPassword"]').fill(password);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    await toast(page, 'Signup Successful!').waitFor();
    await page.getByRole('heading', { name: `Welcome back, ${username}` }).waitFor();
    await page.getByText('You have no trades yet.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
    await screenshot(page, 'dashboard-light');

    await logout(page);
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeNull();
    await context.close();
  });

  it('signs in, turns two-factor on, and signs in again with a code', async () => {
    const { page, context } = await newPage(browser);
    await login(page, username, 'wrong-password');
    await toast(page, 'Invalid username or password').waitFor();
    await login(page, username, password);
    await page.waitForURL(`${product.baseUrl}/`);
    await toast(page, 'Welcome back!').waitFor();
    await toast(page, 'Successfully logged in.').waitFor();

    await page.getByRole('button', { name: 'Profile menu' }).click();
    await page.getByRole('menuitem', { name: 'Security' }).click();
    await page.waitForURL(`${product.baseUrl}/settings/security`);
    await page.getByRole('button', { name: 'Enable two-factor' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await screenshot(page, 'security-enrol-light');
    const nextCode = createAuthenticator(secret);
    const enable = page.getByRole('button', { name: 'Confirm and enable' });
    await page.getByLabel('Authentication code').fill(await nextCode());
    // A session alone does not turn two-factor on: the account's password is asked again.
    expect(await enable.isDisabled()).toBe(true);
    await page.locator('input[name="password"]').fill(password);
    await enable.click();

    await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    recoveryCodes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await screenshot(page, 'security-recovery-codes-light');
    await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
    await page.getByRole('button', { name: 'Disable two-factor' }).waitFor();
    await page.getByText('Recovery codes left: 10').waitFor();
    await expect.poll(() => product.mails.some((mail) => mail.to.includes(email) && mail.subject === 'Two-factor authentication is on')).toBe(true);
    await logout(page);

    await login(page, username, password);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    const verify = page.getByRole('button', { name: 'Verify Code' });
    await page.getByLabel('Authentication code').fill('12345');
    expect(await verify.isDisabled()).toBe(true);
    await page.getByLabel('Authentication code').fill(await nextCode());
    expect(await verify.isDisabled()).toBe(false);
    await verify.click();
    await page.waitForURL(`${product.baseUrl}/`);
    await toast(page, 'Welcome back!').waitFor();
    await logout(page);
    await context.close();
  });

  it('resets a forgotten password with the mailed code and signs in with the new one', async () => {
    const { page, context } = await newPage(browser);
    const mailsBefore = product.mails.filter((mail) => mail.to.includes(email)).length;
    await page.goto(`${product.baseUrl}/forgot-password`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await toast(page, 'OTP Sent').waitFor();
    await page.getByRole('heading', { name: 'Complete your account' }).waitFor();
    const code = await product.codeFor(email, mailsBefore);
    password = 'second-pass-2';
    await page.getByLabel('Verification code').fill(code);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirmPassword"]').fill(password);
    await screenshot(page, 'reset-details-light');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${product.baseUrl}/login`);
    await toast(page, 'Password reset successful').waitFor();
    await toast(page, 'Kindly login with your new password').waitFor();

    await login(page, username, 'first-pass-1');
    await toast(page, 'Invalid username or password').waitFor();
    await login(page, username, password);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await context.close();
  });

  it('without the phone: signs in with a recovery code, then turns two-factor off with another one', async () => {
    const { page, context } = await newPage(browser, { colorScheme: 'dark' });
    await login(page, username, password);
    await page.getByRole('button', { name: 'Lost your phone? Use a recovery code' }).click();
    await page.getByRole('heading', { name: 'Use a recovery code' }).waitFor();
    await page.getByLabel('Recovery code').fill((recoveryCodes[0] ?? '').toUpperCase());
    await screenshot(page, 'login-recovery-code-dark');
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    await expect.poll(() => product.mails.some((mail) => mail.to.includes(email) && mail.subject === 'A recovery code was used to sign in')).toBe(true);

    await page.goto(`${product.baseUrl}/settings/security`);
    await page.getByText('Recovery codes left: 9').waitFor();
    await page.getByRole('button', { name: 'Disable two-factor' }).click();
    await page.getByLabel('Authentication or recovery code').fill(recoveryCodes[1] ?? '');
    await page.locator('input[name="password"]').fill('not-my-password');
    await page.getByRole('button', { name: 'Confirm and disable' }).click();
    await toast(page, 'The password is not correct.').waitFor();
    // The refusal clears the code field once the chart has taken it (the toast can show a moment earlier).
    await expect.poll(() => page.getByLabel('Authentication or recovery code').inputValue()).toBe('');
    await page.getByLabel('Authentication or recovery code').fill(recoveryCodes[1] ?? '');
    await page.locator('input[name="password"]').fill(password);
    await screenshot(page, 'security-disable-dark');
    await page.getByRole('button', { name: 'Confirm and disable' }).click();
    await page.getByRole('button', { name: 'Enable two-factor' }).waitFor();
    await expect.poll(() => product.mails.some((mail) => mail.to.includes(email) && mail.subject === 'Two-factor authentication is off')).toBe(true);
    await context.close();
  });
});

describe('the demo trader dave', () => {
  it('signs in with his authenticator secret from the README', async () => {
    const { page, context } = await newPage(browser, { colorScheme: 'dark' });
    await login(page, 'dave', DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await screenshot(page, 'login-two-factor-dark');
    await page.getByLabel('Authentication code').fill(await createAuthenticator(DAVE_SECRET)());
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    await page.getByRole('heading', { name: 'Welcome back, dave' }).waitFor();
    await screenshot(page, 'dashboard-dark');
    await context.close();
  });
});
