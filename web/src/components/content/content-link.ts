import { isContentLink } from '@custos/contract';

/** Where a banner goes: an app route in the app, an https page in a new window; anything else nowhere. */
export function openContentLink(link: string | null, navigate: (path: string) => void): void {
  if (!link || !isContentLink(link)) return;
  if (link.startsWith('/pages/')) navigate(link);
  else window.open(link, '_blank', 'noopener,noreferrer');
}
