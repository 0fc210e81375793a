import { DEVICE_ID_PATTERN } from '../../contracts/index.ts';
import { clearStoredSession, deviceId, writeStoredSession } from '../../src/services/storage.ts';

/** A Storage in memory; `broken` throws on every call, as a browser that refuses site data does. */
function memoryStorage({ broken = false } = {}): Storage {
  const items = new Map<string, string>();
  const guard = () => {
    if (broken) throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (index) => [...items.keys()][index] ?? null,
    getItem: (key) => (guard(), items.get(key) ?? null),
    setItem: (key, value) => (guard(), void items.set(key, value)),
    removeItem: (key) => void items.delete(key),
  };
}

describe('deviceId: the id this browser sends with each sign-in (server/src/accounts/README.md "New sign-ins")', () => {
  it('is made once, as device_id expects it, and kept across sign-outs', () => {
    const storage = memoryStorage();
    const id = deviceId(storage);
    expect(id).toMatch(DEVICE_ID_PATTERN);
    expect(id).toHaveLength(22);
    writeStoredSession({ token: 't', user: { username: 'alice', email: 'a@b.co', websocket_token: 'w' } }, storage);
    clearStoredSession(storage);
    expect(deviceId(storage)).toBe(id);
  });

  it('differs from browser to browser', () => {
    const ids = new Set(Array.from({ length: 50 }, () => deviceId(memoryStorage())));
    expect(ids.size).toBe(50);
  });

  it('replaces a kept value that is not an id (edited by hand, another app\'s key)', () => {
    const storage = memoryStorage();
    storage.setItem('deviceId', 'not an id');
    const id = deviceId(storage);
    expect(id).toMatch(DEVICE_ID_PATTERN);
    expect(storage.getItem('deviceId')).toBe(id);
  });

  it('without storage, lives as long as the page', () => {
    const storage = memoryStorage({ broken: true });
    const id = deviceId(storage);
    expect(id).toMatch(DEVICE_ID_PATTERN);
    expect(deviceId(storage)).toBe(id);
  });
});
