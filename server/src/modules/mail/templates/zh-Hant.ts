import type { MailCatalogue } from './en.js';

export const zhHant: MailCatalogue = {
  'register_code.subject': '{site} 註冊驗證碼：{code}',
  'register_code.body':
    '您的 {site} 註冊驗證碼是 {code}。\n\n驗證碼 10 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請忽略這封電子郵件。',
  'already_registered.subject': '您已擁有 {site} 帳戶',
  'already_registered.body':
    '有人嘗試使用此電子郵件地址註冊新的 {site} 帳戶，但此地址已有帳戶。\n\n如果是您本人，請直接登入，或在登入頁面使用「忘記密碼？」。如果不是您本人，請忽略這封電子郵件。',
  'login_code.subject': '{site} 登入驗證碼：{code}',
  'login_code.body':
    '您的 {site} 登入驗證碼是 {code}。\n\n驗證碼 10 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請盡快變更密碼。',
  'reset_code.subject': '{site} 重設密碼驗證碼：{code}',
  'reset_code.body':
    '您的 {site} 重設密碼驗證碼是 {code}。\n\n驗證碼 10 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請忽略這封電子郵件，您的密碼不會變更。',
  'trade_code.subject': '{site} 交易密碼驗證碼：{code}',
  'trade_code.body':
    '您用於重設 {site} 交易密碼的驗證碼是 {code}。\n\n驗證碼 10 分鐘內有效，僅可使用一次。如果這不是您本人的操作，請立即修改登入密碼。',
};
