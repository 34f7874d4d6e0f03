/** The member's session token, stored as the spec says: an `Authorization` value in local storage. */
const CREDENTIAL_KEY = 'Authorization';

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
  },
  clear(): void {
    localStorage.removeItem(CREDENTIAL_KEY);
  },
};
