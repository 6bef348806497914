// Enum values in the window's words. The service's raw value stays available (shown on hover and
// used in copies and exports); values the app has never seen read as plain words, never hidden.
const LABELS: Record<string, string> = {
  FIXED: 'Fixed CPC',
  MAX_CONVERSIONS: 'Maximise conversions',
  MONTHLY: 'Monthly',
  NONE: 'No limit (daily cap only)',
  LEADS_GENERATION: 'Lead generation',
  DRIVE_WEBSITE_TRAFFIC: 'Website traffic',
  CPC: 'Cost per click',
  STRICT: 'Strict',
  HAS_NO_ITEMS: 'Native (no items yet)',
  HAS_NO_ITEMS_DISPLAY: 'Display (no items yet)',
  HAS_NO_ITEMS_PERFORMANCE_DISPLAY_VIDEO: 'Performance video (no items yet)',
  HAS_DISPLAY_ITEMS: 'Display',
  APPROVED: 'Approved',
  PENDING_APPROVAL: 'Pending approval',
  PAUSED: 'Paused',
  REJECTED: 'Rejected',
  TERMINATED: 'Terminated',
};

/** "MAX_CONVERSIONS" -> "Maximise conversions"; an unknown "NEW_THING_2" -> "New thing 2". */
export function enumLabel(value: string): string {
  const known = LABELS[value];
  if (known) return known;
  const words = value.replace(/_/g, ' ').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
