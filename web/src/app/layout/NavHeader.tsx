import type { ReactNode } from 'react';
import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';

/** The dark navigation header with white text; back returns, or goes home when there is no history. */
export function NavHeader({ title, showBack, right }: { title: string; showBack: boolean; right?: ReactNode }) {
  const navigate = useNavigate();
  const goBack = () => {
    const state = window.history.state as { idx?: number } | null;
    if (state?.idx && state.idx > 0) void navigate(-1);
    else void navigate('/pages/index/index', { replace: true });
  };
  return (
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
  );
}
