import type { MailCatalogue } from './en.js';

export const zhHans: MailCatalogue = {
  'register_code.subject': '{site} 注册验证码：{code}',
  'register_code.body':
    '您的 {site} 注册验证码是 {code}。\n\n验证码 10 分钟内有效，仅可使用一次。如果这不是您本人的操作，请忽略此邮件。',
  'already_registered.subject': '您已拥有 {site} 账户',
  'already_registered.body':
    '有人尝试使用此邮箱注册新的 {site} 账户，但该邮箱已有账户。\n\n如果是您本人，请直接登录，或在登录页使用“忘记密码”。如果不是您本人，请忽略此邮件。',
  'login_code.subject': '{site} 登录验证码：{code}',
  'login_code.body':
    '您的 {site} 登录验证码是 {code}。\n\n验证码 10 分钟内有效，仅可使用一次。如果这不是您本人的操作，请尽快修改密码。',
  'reset_code.subject': '{site} 重置密码验证码：{code}',
  'reset_code.body':
    '您的 {site} 重置密码验证码是 {code}。\n\n验证码 10 分钟内有效，仅可使用一次。如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。',
  'trade_code.subject': '{site} 交易密码验证码：{code}',
  'trade_code.body':
    '您用于重置 {site} 交易密码的验证码是 {code}。\n\n验证码 10 分钟内有效，仅可使用一次。如果这不是您本人的操作，请立即修改登录密码。',
  'login_attempts_notice.subject': '{site} 账户登录失败提醒',
  'login_attempts_notice.body':
    '过去一天内，有人从您未曾使用过的地址，用错误的密码尝试登录您的 {site} 账户至少 {count} 次。来自这些地址的登录现已被放慢；您自己的设备不受影响。\n\n如果不是您本人，说明有人正在猜测您的密码：请在登录页使用“忘记密码？”设置一个更强的新密码，如尚未绑定谷歌验证器，请尽快绑定。',
};
