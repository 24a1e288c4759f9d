/**
 * The JSON form of a type from @grafana/schema: a string enum (FieldColorModeId, ThresholdsMode,
 * ...) becomes the union of its values, which is what a dashboard file holds; everything else is
 * kept, optional fields stay optional. Numeric enums need nothing: a number literal fits them.
 */
export type JsonOf<T> =
  T extends string ? `${T}` :
  T extends readonly (infer U)[] ? JsonOf<U>[] :
  T extends object ? { [K in keyof T]: JsonOf<T[K]> } :
  T;
