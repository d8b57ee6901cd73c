const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10 };

/** The value of a Roman numeral of I, V and X, as Absätze are numbered ('IV' -> 4). */
export function romanToNumber(roman: string): number {
  let total = 0;
  for (let i = 0; i < roman.length; i++) {
    const value = ROMAN_VALUES[roman[i]];
    const next = ROMAN_VALUES[roman[i + 1]] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}
