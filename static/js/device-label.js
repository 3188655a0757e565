// A phone's label, chosen once when it joins a game ("Dana's phone") and kept in the browser:
// the pure part. The server keeps it the same way (operations.trail.clean_label): spaces
// squeezed, at most LABEL_MAX characters. static/js/device.js puts it on the page.

export const LABEL_MAX = 40;
export const STORAGE_KEY = "scorekeeper.device";

// The label as kept: trimmed, runs of white space made one space, cut to LABEL_MAX
// characters (code points, so a name in any script is never cut inside a letter's pair).
export function cleanLabel(raw) {
  const squeezed = String(raw ?? "").split(/\s+/u).filter(Boolean).join(" ");
  return Array.from(squeezed).slice(0, LABEL_MAX).join("");
}

// The label kept in `storage` (an object with getItem, as localStorage), or "" when none is
// (or the browser keeps nothing: private mode throws).
export function storedLabel(storage) {
  try {
    return cleanLabel(storage.getItem(STORAGE_KEY));
  } catch (e) {
    return "";
  }
}

// Keep `raw` as the label; return what was kept ("" when it was blank: nothing is kept).
export function keepLabel(storage, raw) {
  const label = cleanLabel(raw);
  try {
    if (label) { storage.setItem(STORAGE_KEY, label); } else { storage.removeItem(STORAGE_KEY); }
  } catch (e) {
    return label;
  }
  return label;
}
