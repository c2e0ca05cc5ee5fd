// The values of `npx smfem`'s options, read as they are written: decimal numbers only (Number()
// alone would also take '0x10', '' and '  ' for numbers), each refusal naming the option.
const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * text as a number that passes check, which `expected` says in words ('a number above 0');
 * throws an Error naming `name`, the text and, for a number check refuses, what it expected.
 */
export function optionNumber(text, name, check = Number.isFinite, expected = 'a number') {
  const value = text !== undefined && decimal.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(value)) throw new Error(`${name}: not a valid number: ${text ?? 'nothing given'}`);
  if (!check(value)) throw new Error(`${name}: expected ${expected}, not ${text}`);
  return value;
}

/** text as a whole number of at least `least`; throws an Error naming `name` and the text. */
export function optionWholeNumber(text, name, least = -Infinity) {
  const value = optionNumber(text, name, Number.isInteger, 'a whole number');
  if (value < least) throw new Error(`${name} must be at least ${least}, not ${value}`);
  return value;
}
