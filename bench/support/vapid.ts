import webpush from 'web-push';

/** A throwaway VAPID key pair for a production boot (production refuses to start without one). */
export const vapidEnvironment = () => {
  const pair = webpush.generateVAPIDKeys();
  return { VAPID_PUBLIC_KEY: pair.publicKey, VAPID_PRIVATE_KEY: pair.privateKey };
};
