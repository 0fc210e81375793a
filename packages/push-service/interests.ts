/**
 * Beams' rules for interest names (docs/pusher-and-beams.md "Interest and user limits"): what the device API
 * accepts from a browser and what a publish may name.
 */

export const INTEREST_PATTERN = /^[A-Za-z0-9_\-=@,.]+$/;
export const INTEREST_MAX_LENGTH = 164;
/** How many interests one device may hold (duplicates removed). */
export const INTERESTS_PER_DEVICE = 5000;
