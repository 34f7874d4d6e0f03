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
  'login_attempts_notice.subject': '{site} 帳戶登入失敗提醒',
  'login_attempts_notice.body':
    '過去一天內，有人從您未曾使用過的位址，以錯誤的密碼嘗試登入您的 {site} 帳戶至少 {count} 次。來自這些位址的登入現已被放慢；您自己的裝置不受影響。\n\n如果不是您本人，表示有人正在猜測您的密碼：請在登入頁使用「忘記密碼？」設定一個更強的新密碼，如尚未綁定谷歌驗證器，請盡快綁定。',
};
