import type { MailCatalogue } from './en.js';

export const ko: MailCatalogue = {
  'register_code.subject': '{site} 회원가입 인증 코드: {code}',
  'register_code.body':
    '{site} 회원가입 인증 코드는 {code}입니다.\n\n이 코드는 10분간 유효하며 한 번만 사용할 수 있습니다. 회원가입을 요청하지 않으셨다면 이 이메일을 무시하세요.',
  'already_registered.subject': '이미 {site} 계정이 있습니다',
  'already_registered.body':
    '누군가 이 이메일 주소로 새 {site} 계정 가입을 시도했지만, 이 이메일 주소에는 이미 계정이 있습니다.\n\n본인이 시도하셨다면 로그인하시거나 로그인 페이지의 ‘비밀번호를 잊으셨나요?’를 이용해 주세요. 본인이 아니라면 이 이메일을 무시하셔도 됩니다.',
  'login_code.subject': '{site} 로그인 인증 코드: {code}',
  'login_code.body':
    '{site} 로그인 인증 코드는 {code}입니다.\n\n이 코드는 10분간 유효하며 한 번만 사용할 수 있습니다. 로그인을 시도하지 않으셨다면 비밀번호를 변경해 주세요.',
  'reset_code.subject': '{site} 비밀번호 재설정 인증 코드: {code}',
  'reset_code.body':
    '{site} 비밀번호 재설정 인증 코드는 {code}입니다.\n\n이 코드는 10분간 유효하며 한 번만 사용할 수 있습니다. 비밀번호 재설정을 요청하지 않으셨다면 이 이메일을 무시하세요. 비밀번호는 변경되지 않았습니다.',
  'trade_code.subject': '{site} 거래 비밀번호 인증 코드: {code}',
  'trade_code.body':
    '{site} 거래 비밀번호 재설정 인증 코드는 {code}입니다.\n\n10분간 유효하며 한 번만 사용할 수 있습니다. 본인이 요청하지 않았다면 즉시 로그인 비밀번호를 변경해 주세요.',
  'login_attempts_notice.subject': '{site} 계정 로그인 실패 알림',
  'login_attempts_notice.body':
    '지난 하루 동안 이전에 사용하지 않은 주소에서 잘못된 비밀번호로 {site} 계정에 {count}회 이상 로그인을 시도했습니다. 해당 주소에서의 로그인은 현재 지연됩니다. 회원님의 기기에는 영향이 없습니다.\n\n본인이 아니라면 누군가 비밀번호를 추측하고 있습니다. 로그인 화면의 "비밀번호를 잊으셨나요?"에서 더 강력한 새 비밀번호를 설정하고, 아직 연결하지 않았다면 인증 앱을 연결하세요.',
};
