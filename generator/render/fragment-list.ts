// A list's rendered items, as render-site.ts makes them and openapi.ts reads its examples from
// them: a module of its own, so that neither imports the other for it.

/**
 * A list's rendered items by position: an array of them, or one made each time it is asked for
 * (a cold build's topics, which no one keeps).
 */
export interface FragmentList {
  readonly length: number;
  at(position: number): string | undefined;
}
