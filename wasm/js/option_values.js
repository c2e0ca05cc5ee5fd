// The values of `npx smfem`'s options, read as they are written: decimal numbers only (Number()
// alone would also take '0x10', '' and '  ' for numbers), each refusal naming the option.
const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** text as a number that passes check; throws an Error naming `name` and the text. */
export function optionNumber(text, name, check = Number.isFinite) {
  const value = text !== undefined && decimal.test(text) ? Number(text) : NaN;
  if (!check(value)) throw new Error(`${name}: not a valid number: ${text ?? 'nothing given'}`);
  return value;
}

/** text as a whole number of at least `least`; throws an Error naming `name` and the text. */
export function optionWholeNumber(text, name, least = -Infinity) {
  const value = optionNumber(text, name, Number.isInteger);
  if (value < least) throw new Error(`${name} must be at least ${least}, not ${value}`);
  return value;
}
