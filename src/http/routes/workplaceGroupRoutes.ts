import { type Static, type TSchema, Type } from 'typebox';
import type { Database, Queryable } from '../../db/database.ts';
import type { OffsetPage, OffsetRequest } from '../../db/paging.ts';
import * as repository from '../../db/repositories/workplaceGroupRepository.ts';
import { listWorkplaces, workplacesOfGroups } from '../../db/repositories/workplaceRepository.ts';
import type { Workplace, WorkplaceGroup, WorkplaceGroupInput } from '../../domain/workplaces.ts';
import * as service from '../../services/workplaceGroupService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import type { Resource } from '../hal.ts';
import { WORKPLACE_GROUPS_PATH } from '../paths.ts';
import { TEXT_EMBEDS } from '../presenters/texts.ts';
import { presentWorkplaceGroup } from '../presenters/workplaceGroupPresenter.ts';
import { type ResourceDefinition, resourceRoutes } from '../resourceRoutes.ts';
import {
  GroupType,
  WorkplaceGroupBody,
  WorkplaceGroupSchema,
  WorkplaceSchema,
} from '../schemas/workplaceSchemas.ts';
import { presentWorkplaces } from './workplaceRoutes.ts';

/** A group's body as the service takes it (create and replace): what is left out is null. */
const groupInput = ({ id: _checked, ...body }: Static<typeof WorkplaceGroupBody>): WorkplaceGroupInput => ({
  ...body,
  description: body.description ?? null,
  erpContextId: body.erpContextId ?? null,
});

export function registerWorkplaceGroups(api: Api, { db }: ServerDeps): void {
  const groups = resourceRoutes(api, {
    tags: ['workplace groups'],
    path: WORKPLACE_GROUPS_PATH,
    schema: WorkplaceGroupSchema,
    embeds: [...TEXT_EMBEDS, 'workplaces'],
    presentPage: async (items: WorkplaceGroup[], request, embed) => {
      if (!embed.has('workplaces')) return items.map((group) => presentWorkplaceGroup(group, request.hrefs));
      // Every group's workplaces in one read, each presented as GET /workplaces shows it.
      const members = await workplacesOfGroups(
        db,
        items.map((group) => group.id),
      );
      const presented = await presentWorkplaces(db, request, members);
      const byGroup = new Map<string, Resource[]>(items.map((group) => [group.id, []]));
      members.forEach((member, index) => {
        for (const groupId of new Set([member.capacityGroupId, member.productionLineId]))
          if (groupId !== null) byGroup.get(groupId)?.push(presented[index] as Resource);
      });
      return items.map((group) => presentWorkplaceGroup(group, request.hrefs, byGroup.get(group.id)));
    },
    texts: { db, table: 'workplace_groups' },
  });
  groups.list({
    summary: 'List workplace groups',
    filters: { type: Type.Optional(GroupType) },
    load: (filter, page) => repository.listWorkplaceGroups(db, filter, page),
  });
  groups.items(db, {
    input: groupInput,
    get: { run: service.getWorkplaceGroup },
    create: {
      summary: 'Create a workplace group',
      body: WorkplaceGroupBody,
      run: service.createWorkplaceGroup,
    },
    replace: {
      summary: 'Replace a workplace group',
      body: WorkplaceGroupBody,
      run: service.replaceWorkplaceGroup,
    },
    remove: {
      summary: 'Delete a workplace group (400 RESOURCE_IN_USE while workplaces belong to it)',
      run: service.deleteWorkplaceGroup,
    },
  });

  resourceRoutes(api, {
    tags: ['workplace groups'],
    path: `${WORKPLACE_GROUPS_PATH}/:id/assignedWorkplaces`,
    name: 'workplaces',
    schema: WorkplaceSchema,
    presentPage: (workplaces: Workplace[], request) => presentWorkplaces(db, request, workplaces),
  }).list({
    summary: 'The workplaces whose capacity group or production line is the group, by number',
    operationId: 'getWorkplaceGroupAssignedWorkplaces',
    owner: async (at) => (await service.getWorkplaceGroup(db, at.id)).id,
    load: (_filter, page, at) => listWorkplaces(db, { workplaceGroupId: at.owner }, page),
  });
}

/** How a kind of rules of a workplace group (setup transitions, manufacturing variants) shows in the API. */
export interface GroupRuleRoutes<Rule, Input, CB extends TSchema, RB extends TSchema> {
  resource: ResourceDefinition<Rule, never>;
  /** The rule in summaries (`setup transition rule`) and the prefix of its events. */
  noun: string;
  events: string;
  list: (db: Queryable, groupId: string, page: OffsetRequest) => Promise<OffsetPage<Rule>>;
  input: (body: Static<CB> | Static<RB>) => Input;
  /** The service's rules (workplaceGroupService.ts, `groupRules`). */
  rules: {
    get: (db: Queryable, groupId: string, id: string) => Promise<Rule>;
    create: (db: Database, groupId: string, input: Input) => Promise<Rule>;
    replace: (db: Database, groupId: string, id: string, input: Input) => Promise<Rule>;
    delete: (db: Database, groupId: string, id: string) => Promise<void>;
  };
  create: { description: string; body: CB };
  replaceBody: RB;
}

/** The list and item routes of a kind of rules of a workplace group, oldest first. */
export function registerGroupRules<Rule, Input, CB extends TSchema, RB extends TSchema>(
  api: Api,
  db: Database,
  { resource, noun, events, list, input, rules, create, replaceBody }: GroupRuleRoutes<Rule, Input, CB, RB>,
): void {
  const routes = resourceRoutes(api, { tags: ['workplace groups'], ...resource });
  routes.list({
    summary: `The ${noun}s of a workplace group, oldest first (offset pagination)`,
    owner: async (at) => (await service.getWorkplaceGroup(db, at.id)).id,
    load: (_filter, page, at) => list(db, at.owner, page),
  });
  routes.items(db, {
    input,
    get: { run: rules.get },
    create: { summary: `Create a ${noun} (emits ${events}_CREATED)`, ...create, run: rules.create },
    replace: {
      summary: `Replace a ${noun} (emits ${events}_UPDATED when something changes)`,
      body: replaceBody,
      run: rules.replace,
    },
    remove: { summary: `Delete a ${noun} (emits ${events}_DELETED)`, run: rules.delete },
  });
}
