// The folders of the file repository (docs/resources/fileRepository.md): a tree below one root
// folder; every document is in exactly one folder. A folder's path is the list of names from the
// root down; the service keeps it as text only as its own join of names it checked.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';

/** The root folder, made by the migration: the folder of the path `/`. */
export const ROOT_FOLDER_ID = '00000000-0000-4000-8000-000000000000';

export interface DocumentFolder extends Stored {
  /** null only for the root folder. */
  parentId: string | null;
  name: string;
  /** The names from the root down to this folder; [] for the root. */
  path: string[];
  creator: string | null;
  editor: string | null;
  /** The workplace whose production documents the folder holds, if it is one's. */
  workplace: { id: string; number: string; description: string | null } | null;
  materialNumber: string | null;
}

/** What a client sets through POST /fileRepository/folders. */
export interface FolderInput {
  name: string;
  parentId: string;
  creator: string | null;
  workplaceId: string | null;
  materialNumber: string | null;
}

/**
 * A name of a folder or a file: not empty, not `.`, without `..`, `/`, `\` or control characters,
 * so no name can climb out of or into another folder wherever a path is made of it.
 */
const NAME_CHARACTERS = '(?:(?!\\.\\.)[^/\\\\\\x00-\\x1f\\x7f-\\x9f])+';
export const NAME_PATTERN = `^(?!\\.$)${NAME_CHARACTERS}$`;
const NAME = new RegExp(NAME_PATTERN, 'u');

/** A folder path of such names: `/` or `/a/b`, no empty segment, no trailing `/`. */
const SEGMENT = `(?!\\.(?:/|$))${NAME_CHARACTERS}`;
export const FOLDER_PATTERN = `^/(?:${SEGMENT}(?:/${SEGMENT})*)?$`;

/** A name from outside the schemas (a multipart file name): 400 naming `field` unless it is one. */
export function checkName(field: string, name: string): string {
  if (name.length === 0 || name.length > 255 || !NAME.test(name)) {
    throw new AppError('VALIDATION_FAILED', { rule: 'pattern', field });
  }
  return name;
}

/** The names of a production folder path (`/`, `/a/b`), as the documents' `folder` gives them. */
export const namesOf = (folder: string): string[] => (folder === '/' ? [] : folder.slice(1).split('/'));

/** The `folder` text of these names: the form /documents shows and the stored path. */
export const folderText = (names: readonly string[]): string => `/${names.join('/')}`;
