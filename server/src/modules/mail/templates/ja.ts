import type { MailCatalogue } from './en.js';

export const ja: MailCatalogue = {
  'register_code.subject': '{site} 新規登録の認証コード：{code}',
  'register_code.body':
    '{site} の新規登録の認証コードは {code} です。\n\nこのコードの有効期限は10分間で、1回のみ使用できます。登録を申請していない場合は、このメールを無視してください。',
  'already_registered.subject': '{site} のアカウントはすでに登録されています',
  'already_registered.body':
    'このメールアドレスで {site} の新規アカウント登録が試みられましたが、このメールアドレスにはすでにアカウントがあります。\n\nご本人の場合は、ログインするか、ログイン画面の「パスワードをお忘れですか？」をご利用ください。お心当たりがない場合は、このメールを無視してください。',
  'login_code.subject': '{site} ログインの認証コード：{code}',
  'login_code.body':
    '{site} のログインの認証コードは {code} です。\n\nこのコードの有効期限は10分間で、1回のみ使用できます。ログインを試みた覚えがない場合は、パスワードを変更してください。',
  'reset_code.subject': '{site} パスワード再設定の認証コード：{code}',
  'reset_code.body':
    '{site} のパスワード再設定の認証コードは {code} です。\n\nこのコードの有効期限は10分間で、1回のみ使用できます。パスワードの再設定を申請していない場合は、このメールを無視してください。パスワードは変更されていません。',
  'trade_code.subject': '{site} 取引パスワード認証コード：{code}',
  'trade_code.body':
    '{site} の取引パスワード再設定用の認証コードは {code} です。\n\n有効期限は 10 分で、1 回のみ使用できます。心当たりがない場合は、すぐにログインパスワードを変更してください。',
};
