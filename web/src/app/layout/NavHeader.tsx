import { useLayoutEffect, useRef, type ReactNode } from 'react';
import NavBar from 'antd-mobile/es/components/nav-bar';
import { useTranslation } from '../../lib/i18n/translator';
import { useNavigate } from '../../lib/router/router';

/** The dark navigation header with white text; back returns, or goes home when there is no history. */
export function NavHeader({ title, showBack, right }: { title: string; showBack: boolean; right?: ReactNode }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const header = useRef<HTMLDivElement>(null);
  // antd-mobile's left slot is always a role="button": named "Back" when it goes back, and no
  // button at all on a page without back (a nameless button for screen readers otherwise).
  useLayoutEffect(() => {
    const left = header.current?.querySelector('.adm-nav-bar-left');
    if (!left) return;
    if (showBack) {
      left.setAttribute('role', 'button');
      left.setAttribute('aria-label', t('common.back'));
    } else {
      left.removeAttribute('role');
      left.removeAttribute('aria-label');
    }
  }, [showBack, t]);
  const goBack = () => {
    const state = window.history.state as { idx?: number } | null;
    if (state?.idx && state.idx > 0) void navigate(-1);
    else void navigate('/pages/index/index', { replace: true });
  };
  return (
    <div ref={header} className="nav-header-host">
      <NavBar
        className="nav-header"
        data-testid="nav-header"
        backIcon={showBack}
        back={showBack ? '' : null}
        onBack={goBack}
        right={right}
      >
        {title}
      </NavBar>
    </div>
  );
}
