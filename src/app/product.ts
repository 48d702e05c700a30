/**
 * The product's name (ARCHITECTURE.md, "Look and feel"): Gradus, Latin for "step". It is a name, not a
 * message, so it is the same in every language; it is the page title on every route.
 */
export const PRODUCT_NAME = 'Gradus';
