// Other names for an output format, accepted wherever a format is named (`options.format`, the
// `f_` token, the clients, the CLI) and answered as the format's own name: `jpg` is `jpeg`.
// Plain data: the transform URL builder in the browser reaches it.
export const OUTPUT_FORMAT_ALIASES = { jpg: "jpeg" } as const;

export type OutputFormatAlias = keyof typeof OUTPUT_FORMAT_ALIASES;

export const OUTPUT_FORMAT_ALIAS_NAMES = Object.keys(OUTPUT_FORMAT_ALIASES) as OutputFormatAlias[];

function isAlias(name: string): name is OutputFormatAlias {
  return Object.hasOwn(OUTPUT_FORMAT_ALIASES, name);
}

/** The format's own name for `name`: an alias's format, any other name unchanged. */
export function canonicalFormat<T extends string>(name: T): Exclude<T, OutputFormatAlias> | (typeof OUTPUT_FORMAT_ALIASES)[OutputFormatAlias] {
  return isAlias(name) ? OUTPUT_FORMAT_ALIASES[name] : (name as Exclude<T, OutputFormatAlias>);
}
