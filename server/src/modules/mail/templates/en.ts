/** E-mails in English: the source the other languages mirror. `{name}` is filled in at send time. */
export const en = {
  'register_code.subject': '{site} registration code: {code}',
  'register_code.body':
    'Your {site} registration code is {code}.\n\nIt is valid for 10 minutes and can be used once. If you did not ask to register, ignore this e-mail.',
  'already_registered.subject': 'You already have a {site} account',
  'already_registered.body':
    'Someone tried to register a new {site} account with this e-mail address, but it already has an account.\n\nIf it was you, log in, or use "Forgot password?" on the log-in page. If not, you can ignore this e-mail.',
  'login_code.subject': '{site} log-in code: {code}',
  'login_code.body':
    'Your {site} log-in code is {code}.\n\nIt is valid for 10 minutes and can be used once. If you did not try to log in, change your password.',
  'reset_code.subject': '{site} password reset code: {code}',
  'reset_code.body':
    'Your {site} password reset code is {code}.\n\nIt is valid for 10 minutes and can be used once. If you did not ask to reset your password, ignore this e-mail; your password has not changed.',
  'trade_code.subject': '{site} trading password code: {code}',
  'trade_code.body':
    'Your {site} code for resetting the trading password is {code}.\n\nIt is valid for 10 minutes and can be used once. If you did not ask for it, change your login password now.',
  'login_attempts_notice.subject': 'Failed sign-ins to your {site} account',
  'login_attempts_notice.body':
    'Someone has tried to log in to your {site} account with a wrong password at least {count} times in the last day, from addresses you have not used before. Log-ins from those addresses are now slowed down; your own devices are not affected.\n\nIf it was not you, your password is being guessed: use "Forgot password?" on the log-in page to set a new, stronger one, and bind an authenticator if you have not.',
} as const;

export type MailTemplateKey = keyof typeof en;
export type MailCatalogue = Record<MailTemplateKey, string>;
