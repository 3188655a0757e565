// The tables of cases the scripts' tests share with the engine's (tests/cases/*.json).
import { readFileSync } from "node:fs";

export function cases(name) {
  return JSON.parse(readFileSync(new URL(`../cases/${name}`, import.meta.url), "utf8"));
}
