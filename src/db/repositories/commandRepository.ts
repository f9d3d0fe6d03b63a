import type { Command, CommandData, CommandType, ResultCode } from '../../domain/commands.ts';
import type { Queryable } from '../database.ts';
import { asJsonb, firstItem, insertRow, ownedFind, type Table, typed, updateById } from '../table.ts';

interface Row {
  id: string;
  client_id: string;
  type: CommandType;
  data: CommandData;
  result_code: ResultCode | null;
  result_detail: Record<string, unknown> | null;
  created_at: Date;
  executed_at: Date | null;
  booking_timestamp: Date | null;
}

const toCommand = (row: Row): Command => ({
  id: row.id,
  clientId: row.client_id,
  type: row.type,
  data: row.data,
  resultCode: row.result_code,
  resultDetail: row.result_detail,
  createdAt: row.created_at,
  executedAt: row.executed_at,
  bookingTimestamp: row.booking_timestamp,
});

const COMMANDS: Table<Row, Command> = { from: 'commands', toItem: toCommand };

/** A client's command; another client's is not found. */
export const findCommand = ownedFind(COMMANDS, 'client_id');

export function insertCommand(db: Queryable, command: Command): Promise<void> {
  return insertRow(db, 'commands', {
    id: command.id,
    client_id: command.clientId,
    type: command.type,
    data: asJsonb(command.data),
    result_code: command.resultCode,
    result_detail: resultDetail(command),
    created_at: command.createdAt,
    executed_at: command.executedAt,
    booking_timestamp: command.bookingTimestamp,
  });
}

const resultDetail = (command: Command) =>
  typed(command.resultDetail === null ? null : JSON.stringify(command.resultDetail), 'jsonb');

/** Writes the result of an executed command. */
export function recordCommandResult(db: Queryable, command: Command): Promise<void> {
  return updateById(db, 'commands', command.id, {
    result_code: command.resultCode,
    result_detail: resultDetail(command),
    executed_at: command.executedAt,
    booking_timestamp: command.bookingTimestamp,
  });
}

/**
 * The oldest pending command, locked: instances take the queue one command at a time, in the
 * order received (a second instance waits for the first's command, then takes the next).
 */
export function lockNextPendingCommand(tx: Queryable): Promise<Command | undefined> {
  return firstItem(
    tx,
    'SELECT * FROM commands WHERE result_code IS NULL ORDER BY sequence LIMIT 1 FOR UPDATE',
    [],
    toCommand,
  );
}
