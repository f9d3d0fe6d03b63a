// Machines (docs/resources/machines.md): /machines and a machine workplace's /workplaces/{id}/machine,
// with the machine state command, counts, strokes and quantities with quality details.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { listRecordedOperatingStates } from '../../db/repositories/workplaceRepository.ts';
import type { RecordedOperatingState } from '../../domain/workplaces.ts';
import * as service from '../../services/machineService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { parseEmbed } from '../embed.ts';
import { startPosition } from '../hal.ts';
import { MACHINES_PATH, WORKPLACES_PATH } from '../paths.ts';
import {
  MACHINE_EMBEDS,
  presentMachine,
  presentRecordedMachineStateDetail,
} from '../presenters/machinePresenter.ts';
import { withTextEmbeds } from '../presenters/texts.ts';
import { viewOf } from '../presenters/view.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { EmbedQuery } from '../schemas/common.ts';
import {
  CountBody,
  MachineFilters,
  MachineQuantityBody,
  MachineSchema,
  MachineStateBody,
  RecordedMachineStateDetailSchema,
  StrokesBody,
} from '../schemas/machineSchemas.ts';
import { withWorkplaces } from './workplaceRoutes.ts';

const tags = ['machines'];

export function registerMachines(api: Api, { db, clock }: ServerDeps): void {
  const presentPage = withTextEmbeds(db, 'workplaces', withWorkplaces(db, presentMachine));

  const machines = resourceRoutes(api, {
    path: MACHINES_PATH,
    schema: MachineSchema,
    embeds: MACHINE_EMBEDS,
    presentPage,
  });
  machines.list({
    summary: 'List machines: one per machine workplace',
    operationId: 'getMachines',
    filters: MachineFilters,
    load: (filter, page) => service.listMachines(db, filter, page),
  });
  machines.get({ load: (at) => service.getMachine(db, at.id) });
  const setState = (summary: string, operationId: string, path: string) =>
    ({
      path,
      summary: `${summary} (emits WORKPLACE_OPERATING_STATE_CHANGED)`,
      description:
        'The workplace takes the operating state the first machine state detail (else the machine state) maps to; see docs/resources/machines.md.',
      operationId,
      body: MachineStateBody,
      run: (body, at) =>
        service.setMachineState(db, at.id, {
          machineStateId: at.params.machineStateId ?? '',
          machineStateDetailIds: body.machineStateDetailIds,
          remark: body.remark,
        }),
    }) satisfies Parameters<typeof machines.command<typeof MachineStateBody>>[0];
  machines.command(setState('Set the machine state', 'updateMachineStatus', ':machineStateId'));
  const booking =
    'Booked on the operation in PROCESSING at the workplace, or on the workplace when none is ' +
    '(emits OPERATION_OUTPUT_QUANTITY_RECORDED or WORKPLACE_OUTPUT_QUANTITY_RECORDED)';
  machines.command({
    path: 'counterIncrease',
    summary: 'Pieces the machine counted, booked UNCATEGORIZED',
    description: booking,
    operationId: 'createCounterIncrease',
    body: CountBody,
    run: (body, at) => service.increaseCounter(db, at.id, body),
  });
  machines.command({
    path: 'strokes',
    summary: 'Strokes of the machine, one piece each, booked UNCATEGORIZED',
    description: booking,
    operationId: 'createStrokes',
    body: StrokesBody,
    run: (body, at) => service.addStrokes(db, at.id, body),
  });
  machines.command({
    path: 'quantitiesWithQualityDetails',
    summary: "A quantity with a quality detail, booked as the detail's quality type",
    description: booking,
    operationId: 'createQuantitiesWithQualityDetails',
    body: MachineQuantityBody,
    run: (body, at) => service.bookMachineQuantity(db, at.id, body),
  });

  // The same command below the workplace: /workplaces/{id}/machine/{machineStateId}.
  const workplaceMachine = resourceRoutes(api, {
    tags,
    path: WORKPLACES_PATH,
    name: 'machines',
    schema: MachineSchema,
    embeds: MACHINE_EMBEDS,
    presentPage,
  });
  workplaceMachine.command(
    setState("Set the workplace machine's state", 'updateWorkplaceState', 'machine/:machineStateId'),
  );

  registerRoute(api, {
    method: 'GET',
    path: `${WORKPLACES_PATH}/:id/machine`,
    tags,
    operationId: 'getWorkplaceMachine',
    summary: "A machine workplace's machine",
    querystring: Type.Object({ embed: EmbedQuery }, { additionalProperties: false }),
    response: { 200: MachineSchema },
    errors: [404],
    handler: async (request) => {
      const embed = parseEmbed(request.query.embed, MACHINE_EMBEDS);
      return (
        await presentPage([await service.getWorkplaceMachine(db, request.params.id)], request, embed)
      )[0];
    },
  });

  const details = resourceRoutes(api, {
    tags,
    path: `${WORKPLACES_PATH}/:id/machine/recordedMachineStateDetails`,
    schema: RecordedMachineStateDetailSchema,
    presentPage: (items: RecordedOperatingState[], request: FastifyRequest) => {
      const now = clock?.now() ?? new Date();
      return items.map((record) => presentRecordedMachineStateDetail(record, viewOf(request), now));
    },
  });
  details.list({
    summary:
      "The machine's states with their details: the workplace history, newest first (timestamp pagination)",
    operationId: 'getRecordedMachineStates',
    position: startPosition,
    owner: async (at) => (await service.getWorkplaceMachine(db, at.id)).workplaceId,
    load: (_filter, page, at) => listRecordedOperatingStates(db, at.owner, page),
  });
}
