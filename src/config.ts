/** Build-time settings of the web app (Vite exposes variables with these prefixes). */
export const webConfig = {
  apiBaseUrl: '/api/',
  /** The logo's link: the operator's marketing site, or the app's home when none is configured. */
  marketingUrl: (import.meta.env.MARKETING_URL as string | undefined) || '/',
};
