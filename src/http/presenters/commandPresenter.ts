import type { Command } from '../../domain/commands.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { COMMANDS_PATH } from '../paths.ts';
import { iso } from './properties.ts';

export function presentCommand(command: Command, hrefs: Hrefs): Resource {
  return resource(
    {
      id: command.id,
      data: command.data,
      resultCode: command.resultCode,
      resultDetail: command.resultDetail,
      timestamp: iso(command.executedAt),
      bookingTimestamp: iso(command.bookingTimestamp),
    },
    { self: link(hrefs.api(`${COMMANDS_PATH}/${command.id}`)) },
  );
}
