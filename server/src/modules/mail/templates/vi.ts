import type { MailCatalogue } from './en.js';

export const vi: MailCatalogue = {
  'register_code.subject': 'Mã đăng ký {site}: {code}',
  'register_code.body':
    'Mã đăng ký {site} của bạn là {code}.\n\nMã có hiệu lực trong 10 phút và chỉ dùng được một lần. Nếu bạn không yêu cầu đăng ký, vui lòng bỏ qua email này.',
  'already_registered.subject': 'Bạn đã có tài khoản {site}',
  'already_registered.body':
    'Có người đã thử đăng ký tài khoản {site} mới bằng địa chỉ email này, nhưng email này đã có tài khoản.\n\nNếu đó là bạn, hãy đăng nhập hoặc dùng “Quên mật khẩu?” trên trang đăng nhập. Nếu không phải bạn, bạn có thể bỏ qua email này.',
  'login_code.subject': 'Mã đăng nhập {site}: {code}',
  'login_code.body':
    'Mã đăng nhập {site} của bạn là {code}.\n\nMã có hiệu lực trong 10 phút và chỉ dùng được một lần. Nếu bạn không thực hiện đăng nhập, hãy đổi mật khẩu.',
  'reset_code.subject': 'Mã đặt lại mật khẩu {site}: {code}',
  'reset_code.body':
    'Mã đặt lại mật khẩu {site} của bạn là {code}.\n\nMã có hiệu lực trong 10 phút và chỉ dùng được một lần. Nếu bạn không yêu cầu đặt lại mật khẩu, vui lòng bỏ qua email này; mật khẩu của bạn chưa bị thay đổi.',
  'trade_code.subject': 'Mã đặt lại mật khẩu giao dịch {site}: {code}',
  'trade_code.body':
    'Mã đặt lại mật khẩu giao dịch {site} của bạn là {code}.\n\nMã có hiệu lực trong 10 phút và chỉ dùng được một lần. Nếu bạn không yêu cầu, hãy đổi mật khẩu đăng nhập ngay.',
  'login_attempts_notice.subject': 'Đăng nhập không thành công vào tài khoản {site} của bạn',
  'login_attempts_notice.body':
    'Trong một ngày qua, đã có ít nhất {count} lần đăng nhập vào tài khoản {site} của bạn bằng mật khẩu sai, từ những địa chỉ bạn chưa từng dùng. Việc đăng nhập từ các địa chỉ đó hiện bị làm chậm; thiết bị của chính bạn không bị ảnh hưởng.\n\nNếu không phải bạn, mật khẩu của bạn đang bị dò đoán: hãy dùng "Quên mật khẩu?" trên trang đăng nhập để đặt mật khẩu mới mạnh hơn, và liên kết ứng dụng xác thực nếu bạn chưa làm.',
};
