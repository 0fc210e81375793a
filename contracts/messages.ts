/** Validation texts that both the browser forms and the server use, so they never drift apart. */
export const messages = {
  invalidEmail: 'Please enter a valid email address',
  invalidCode: 'Please enter a valid 6-digit verification code',
  usernameTooShort: 'Username must be at least 3 characters',
  usernameTooLong: 'Username must be at most 30 characters',
  usernameCharacters: 'Username may only contain letters, digits and _',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  loginNameTooLong: 'Username or email must be at most 254 characters',
  sessionExpired: 'Session expired',
  currentPasswordRequired: 'Please enter your password',
  invalidRecoveryCode: 'Please enter a recovery code like abcde-fghij',
  invalidSecondFactor: 'Please enter a 6-digit authentication code or a recovery code',
} as const;
