/**
 * The server puts a fresh nonce in each console page and allows <style> elements only with it
 * (Content-Security-Policy, decision 014). antd's CSS-in-JS is given the nonce through
 * ConfigProvider, but some of its building blocks write <style> elements of their own without one
 * (the scroll lock of every modal and drawer, the scrollbar measurement). Every <style> element the
 * console's own scripts create therefore carries the nonce. Only the console's own scripts can run
 * here (script-src 'self'), and a <style> in injected markup still has no nonce and stays blocked.
 */
export function readStyleNonce(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
}

export function nonceScriptCreatedStyles(nonce: string): void {
  const createElement = Document.prototype.createElement.bind(document);
  document.createElement = (tagName: string, options?: ElementCreationOptions) => {
    const element = createElement(tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  };
}
