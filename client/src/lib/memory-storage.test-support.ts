/**
 * The browser's localStorage for unit tests: Node's test environment has none. Installed on
 * globalThis by `installMemoryStorage()` (once; later calls keep the same store).
 */
class MemoryStorage {
  private readonly values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, String(value));
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
  clear() {
    this.values.clear();
  }
}

export function installMemoryStorage(): void {
  globalThis.localStorage ??= new MemoryStorage() as unknown as Storage;
}
