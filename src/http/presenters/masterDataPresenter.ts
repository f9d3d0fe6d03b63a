import type { MasterDataEntry, OperatingState } from '../../domain/masterData.ts';
import { type Locale, localize } from '../../i18n/locales.ts';
import { link, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATING_STATES_PATH, WORKPLACE_STATES_PATH } from '../paths.ts';

function entryProperties(entry: MasterDataEntry, locale: Locale) {
  return {
    id: entry.id,
    code: entry.code,
    description: localize(entry.description, locale),
    shortDescription: localize(entry.shortDescription, locale),
    color: entry.color,
  };
}

/** Presents the entries of a master data list that has no links beyond `self`. */
export const presentMasterDataEntry =
  (path: string) => (entry: MasterDataEntry, hrefs: Hrefs, locale: Locale) =>
    resource(entryProperties(entry, locale), { self: link(hrefs.api(`${path}/${entry.id}`)) });

export const presentOperatingState = (state: OperatingState, hrefs: Hrefs, locale: Locale) =>
  resource(
    { ...entryProperties(state, locale), workplaceStateId: state.workplaceStateId },
    {
      self: link(hrefs.api(`${OPERATING_STATES_PATH}/${state.id}`)),
      workplaceState: link(hrefs.api(`${WORKPLACE_STATES_PATH}/${state.workplaceStateId}`)),
    },
  );

/** The operating state as a workplace property: {id, code, description, workplaceStateId}. */
export const operatingStateProperty = (state: OperatingState, locale: Locale) => ({
  id: state.id,
  code: state.code,
  description: localize(state.description, locale),
  workplaceStateId: state.workplaceStateId,
});
