import sanitizeHtml from 'sanitize-html';
import { CONTENT_IMAGE_PATH } from '@custos/contract';
import { AppError } from '../../http/app-error.js';

/**
 * The one allow-list for rich text operators write (news, and later help articles), applied on the
 * server when it is saved (decision 026). Everything not named here goes: scripts, styles, frames,
 * forms, event handlers, `style` and `class` attributes, and any URL scheme but https and mailto.
 * Images only from this origin's content images, so the member app's CSP (`img-src 'self'`) shows
 * them and nothing points members' browsers at a third party.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'blockquote',
    'hr',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Text inside these is dropped with them, never shown as text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'template', 'xmp', 'noembed', 'noframes'],
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const kept: sanitizeHtml.Attributes = {};
      if (attribs.href) Object.assign(kept, { href: attribs.href, target: '_blank', rel: 'noopener noreferrer nofollow' });
      return { tagName, attribs: kept };
    },
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !CONTENT_IMAGE_PATH.test(frame.attribs.src ?? ''),
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** Plain text of stored (sanitised) HTML, for searching: no tags, entities decoded, spaces folded. */
export function plainText(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|h[2-4]|li|td|th|blockquote)>|<br\s*\/?>/gi, '$& '), {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: OPTIONS.nonTextTags,
  })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Every language version's body, sanitised (the one trust boundary for rich text); a body that is
 * empty once unsafe parts are gone is refused and nothing is stored.
 */
export function sanitizedBodies<T extends { bodyHtml: string }>(translations: T[]): T[] {
  const sanitized = translations.map((translation) => ({ ...translation, bodyHtml: sanitizeRichText(translation.bodyHtml) }));
  if (sanitized.some((translation) => translation.bodyHtml === '')) throw AppError.badRequest('content.body_empty');
  return sanitized;
}
