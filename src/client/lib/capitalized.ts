/** 'shop' → 'Shop': a noun at the start of a caption. */
export const capitalized = (word: string): string => `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}`;
