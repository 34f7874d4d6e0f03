/** Copies with a selected, hidden text area: the way that works without the Clipboard API. */
function copyBySelection(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    // Deprecated, yet the only way without the Clipboard API.
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

/**
 * Copies text. The Clipboard API exists only in secure contexts (https, localhost, the Android
 * package) and may be refused (permissions); then the text is copied through a selection instead.
 */
export async function copyText(text: string): Promise<void> {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Refused: try the selection below.
    }
  }
  copyBySelection(text);
}
