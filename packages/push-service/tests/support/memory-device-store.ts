import type { BeamsTokenClaims, BindOutcome, NewPushDevice, PushDeviceStore } from '../../index.ts';

/** A device as the store in memory keeps it. */
export interface StoredDevice extends NewPushDevice {
  lastSeenAt: Date;
  username: string | null;
  sessionId: string | null;
  interests: Set<string>;
}

/**
 * The device API's store in memory, keeping what a host's database would: devices by id, their interests, and
 * the users and live sessions a Beams token may bind a device to (`users`, `liveSessions`: session id → username).
 */
export function memoryDeviceStore() {
  const devices = new Map<string, StoredDevice>();
  const users = new Set<string>();
  const liveSessions = new Map<string, string>();
  const interestsOf = (id: string) => devices.get(id)?.interests ?? new Set<string>();

  const store: PushDeviceStore = {
    async createDevice(device) {
      devices.set(device.id, { ...device, lastSeenAt: device.at, username: null, sessionId: null, interests: new Set() });
    },
    async touchDevice(instanceId, id, at) {
      const device = devices.get(id);
      if (!device || device.instanceId !== instanceId) return undefined;
      device.lastSeenAt = at;
      return { id };
    },
    async deleteDevice(id) {
      devices.delete(id);
    },
    async setMetadata(id, sdkVersion, userAgent) {
      const device = devices.get(id);
      if (!device) return;
      device.sdkVersion = sdkVersion ?? device.sdkVersion;
      device.userAgent = userAgent ?? device.userAgent;
    },
    async addInterest(id, interest) {
      interestsOf(id).add(interest);
    },
    async removeInterest(id, interest) {
      interestsOf(id).delete(interest);
    },
    async interestsPage(id, limit, after) {
      return [...interestsOf(id)]
        .sort()
        .filter((interest) => after === null || interest > after)
        .slice(0, limit);
    },
    async interestCount(id) {
      return interestsOf(id).size;
    },
    async setInterests(id, interests) {
      const device = devices.get(id);
      if (device) device.interests = new Set(interests);
    },
    async bindUser(id: string, claims: BeamsTokenClaims): Promise<BindOutcome> {
      const device = devices.get(id);
      if (!device || !users.has(claims.username)) return 'refused';
      if (liveSessions.get(claims.sessionId) !== claims.username) return 'ended';
      if (device.username !== null && device.username !== claims.username) return 'taken';
      device.username = claims.username;
      device.sessionId = claims.sessionId;
      return 'bound';
    },
  };
  return { store, devices, users, liveSessions };
}
