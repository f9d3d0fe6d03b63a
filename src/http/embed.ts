import { AppError } from '../domain/errors.ts';

/** Parses `embed=a,b` and repeated `embed` parameters; unknown names are a 400 naming them. */
export function parseEmbed<const Name extends string>(
  values: readonly string[] | undefined,
  allowed: readonly Name[],
): Set<Name> {
  if (values === undefined) return new Set(); // the usual request: no embed
  const names = values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(allowed as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new AppError('UNKNOWN_EMBED', {
      names: unknown.join(', '),
      allowed: allowed.length === 0 ? '-' : allowed.join(', '),
    });
  }
  return new Set(names as Name[]);
}

/** The embed value to keep in paging links. */
export const embedQuery = (embed: ReadonlySet<string>) =>
  embed.size === 0 ? undefined : [...embed].join(',');
