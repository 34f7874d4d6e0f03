/** The member's session token, stored as the spec says: an `Authorization` value in local storage. */
export const CREDENTIAL_KEY = 'Authorization';

type Listener = (token: string | null) => void;
const listeners = new Set<Listener>();

function notify(): void {
  const token = credential.get();
  for (const listener of listeners) listener(token);
}

// Another tab logging in or out changes what this one may do too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CREDENTIAL_KEY || event.key === null) notify();
  });
}

export const credential = {
  get(): string | null {
    try {
      return localStorage.getItem(CREDENTIAL_KEY);
    } catch {
      return null;
    }
  },
  set(token: string): void {
    localStorage.setItem(CREDENTIAL_KEY, token);
    notify();
  },
  clear(): void {
    localStorage.removeItem(CREDENTIAL_KEY);
    notify();
  },
  /** Calls `listener` after every log-in and log-out (here or in another tab); answers the unsubscribe. */
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
