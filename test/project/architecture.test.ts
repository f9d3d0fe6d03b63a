// The dependency rules of docs/architecture.md ("Layers"), checked on every file under src: which
// folder may import which, that SQL text lives only in src/db, and that http reads repositories but
// never writes through them. The rules are about folders, so new files fall under them unasked.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

const SRC = new URL('../../src/', import.meta.url).pathname;

/**
 * The folder (first path segment under src) a module belongs to. Of the files at the top,
 * config.ts (typed settings) is a layer of its own; app.ts and main.ts are the 'root' that wires.
 */
const layerOf = (path: string) =>
  path.includes('/') ? (path.split('/')[0] as string) : path === 'config.ts' ? 'config' : 'root';

/**
 * The folders each folder may import (besides itself); every folder under src has a row, so a new
 * folder fails the check until its rules are written down here. 'root' (app.ts, main.ts) wires
 * everything together and may import anything.
 */
const ALLOWED: Record<string, string[] | 'anything'> = {
  root: 'anything',
  // Pure: the model and its rules, and the messages they are told in.
  domain: ['i18n'],
  i18n: ['domain'],
  // Where background work gets the time from and how it repeats: nothing of the service.
  background: [],
  // The address policy: which hosts callbacks and connectors may reach (config parses its lists).
  net: [],
  // config checks the no-connection operating state against the master data.
  config: ['domain', 'net'],
  db: ['config', 'domain'],
  metrics: ['config', 'db'],
  auth: ['config', 'db', 'domain', 'net'],
  services: ['background', 'config', 'db', 'domain', 'net'],
  delivery: ['background', 'config', 'db', 'domain', 'net'],
  // Connectors call services, never repositories: from db only the Database interface (below).
  connectors: ['background', 'config', 'db', 'domain', 'net', 'services'],
  http: ['auth', 'config', 'db', 'domain', 'i18n', 'metrics', 'net', 'services'],
  // The simulator and the CLI are clients of the API; see HTTP_ONLY for what they must leave.
  simulator: ['auth', 'background', 'config', 'db', 'root'],
  // bridge seed and simulate run the simulator on a polling loop of their own; `events tail`
  // reads the stream with the dashboard's parser (web/sse.js, pure).
  cli: ['auth', 'background', 'config', 'db', 'domain', 'net', 'root', 'simulator', 'web'],
  // The dashboard's browser modules: served as they are, they import only each other.
  web: [],
};

/** Folders that talk to the service over HTTP only: none of these import the service's inside. */
const HTTP_ONLY = new Set(['simulator', 'cli']);
/**
 * The CLI is also the service's launcher: `bridge start` reports why a database would not open,
 * `bridge seed`/`simulate` print the client made for the run, and `bridge clients` repairs the
 * clients of a stopped service on its database. Those files, and only those, reach inside.
 */
const SERVICE_SIDE_CLI = new Set(['cli/main.ts', 'cli/demoCommands.ts', 'cli/offlineClients.ts']);
const SERVICE_INSIDE = ['auth', 'db', 'services', 'delivery', 'connectors', 'http'];

/**
 * Only the API's clients import from outside src (the generated client under clients/), and the
 * root's demo start (src/demo.ts), which hands the simulator a client of the API.
 */
const MAY_IMPORT_OUTSIDE = new Set(['simulator', 'cli', 'root']);

/** Only config.ts reads process.env: every setting is validated and documented in one place. */
const READS_ENV = new Set(['config']);

/** Packages the pure layers may import: no I/O (files, network, processes, timers, drivers). */
const PURE_PACKAGES = new Set(['uuid']);
const PURE_LAYERS = new Set(['domain', 'i18n', 'background']);

/** The modules of src/db that http may use: repository reads, and the interface's types and errors. */
const HTTP_DB_MODULES = /^db\/(repositories\/[^/]+|database|paging)\.ts$/;
/** Repository functions that change data, and a table's writes (`shiftWrites`): http calls a service. */
const WRITE_FUNCTION =
  /^(insert|update|upsert|delete|remove|save|record|claim|lock|append|prune|fanOut|obsolete|close|migrate|add|create|replace|set|trim|next)|Writes$/;

/** SQL statements as they are written here (upper-case keywords). */
const SQL =
  /\b(SELECT\b[\s\S]*\bFROM\b|SELECT\s+1\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|(CREATE|ALTER|DROP)\s+(TABLE|INDEX)\b)/;

export interface Violation {
  file: string;
  rule: string;
}

/** Checks one source file (`path` relative to src, e.g. 'services/shifts.ts'). */
export function violationsOf(path: string, text: string, httpOnly: Violation[] = []): Violation[] {
  const found: Violation[] = [];
  const layer = layerOf(path);
  if (!(layer in ALLOWED)) found.push({ file: path, rule: `${layer} has no row in ALLOWED` });
  const kind = path.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const namespaces = new Map<string, string>();

  const checkImport = (specifier: string, clause: ts.ImportClause | undefined, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) {
      if (PURE_LAYERS.has(layer) && !PURE_PACKAGES.has(specifier) && !typeOnly) {
        found.push({ file: path, rule: `${layer} is pure: it must not import the package ${specifier}` });
      }
      return;
    }
    const target = relative(SRC, resolve(SRC, dirname(path), specifier));
    const targetLayer = target.startsWith('..') ? 'outside' : layerOf(target);
    const allowed = ALLOWED[layer];
    if (targetLayer === 'outside') {
      if (!MAY_IMPORT_OUTSIDE.has(layer))
        found.push({ file: path, rule: `${layer} imports nothing outside src` });
    } else if (targetLayer !== layer && allowed !== 'anything' && !allowed?.includes(targetLayer)) {
      found.push({ file: path, rule: `${layer} must not import ${targetLayer} (${specifier})` });
    }
    if (HTTP_ONLY.has(layer) && SERVICE_INSIDE.includes(targetLayer) && !SERVICE_SIDE_CLI.has(path)) {
      httpOnly.push({ file: path, rule: `${layer} talks HTTP only: not ${target}` });
    }
    if (layer === 'connectors' && targetLayer === 'db' && target !== 'db/database.ts') {
      found.push({ file: path, rule: `connectors call services, not ${target}` });
      return;
    }
    if (layer !== 'http' || targetLayer !== 'db') return;
    if (!HTTP_DB_MODULES.test(target)) {
      found.push({ file: path, rule: `http may read repositories, not import ${target}` });
      return;
    }
    if (!target.startsWith('db/repositories/') || typeOnly || clause?.isTypeOnly) return;
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, target);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        if (!element.isTypeOnly && WRITE_FUNCTION.test(name)) {
          found.push({ file: path, rule: `http writes through services, not ${target}: ${name}` });
        }
      }
    }
  };

  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      checkImport(node.moduleSpecifier.text, node.importClause, node.importClause?.isTypeOnly ?? false);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      checkImport(node.moduleSpecifier.text, undefined, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      checkImport(node.arguments[0].text, undefined, false);
    } else if (
      layer !== 'db' &&
      (ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateExpression(node)) &&
      SQL.test(node.getText(source))
    ) {
      found.push({ file: path, rule: 'SQL text belongs in src/db' });
    }
    if (ts.isPropertyAccessExpression(node) && layer === 'http' && ts.isIdentifier(node.expression)) {
      const target = namespaces.get(node.expression.text);
      if (target && WRITE_FUNCTION.test(node.name.text)) {
        found.push({ file: path, rule: `http writes through services, not ${target}: ${node.name.text}` });
      }
    }
    if (
      !READS_ENV.has(layer) &&
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'env' &&
      node.expression.getText(source) === 'process'
    ) {
      found.push({ file: path, rule: 'only config.ts reads process.env' });
    }
    if (layer === 'http' && ts.isPropertyAccessExpression(node) && node.name.text === 'transaction') {
      found.push({ file: path, rule: 'http opens no transaction: every write is one service call' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [relative(SRC, path)] : [];
  });
}

describe('architecture', () => {
  test('every file under src keeps the layering rules', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 50, 'the scan sees the source tree');
    const found = files.flatMap((file) => violationsOf(file, readFileSync(join(SRC, file), 'utf8')));
    assert.deepEqual(found, []);
  });

  test('the simulator and the CLI talk HTTP only, but for the CLI service-side files', () => {
    const httpOnly: Violation[] = [];
    for (const file of sourceFiles(SRC)) violationsOf(file, readFileSync(join(SRC, file), 'utf8'), httpOnly);
    assert.deepEqual(httpOnly, []);
  });

  test('the check finds each kind of violation', () => {
    const rules = (path: string, text: string) => violationsOf(path, text).map((v) => v.rule);
    assert.deepEqual(rules('domain/x.ts', "import { q } from '../db/repositories/shifts.ts';"), [
      'domain must not import db (../db/repositories/shifts.ts)',
    ]);
    assert.deepEqual(rules('domain/x.ts', "import { readFile } from 'node:fs/promises';"), [
      'domain is pure: it must not import the package node:fs/promises',
    ]);
    assert.deepEqual(rules('services/x.ts', "import { link } from '../http/hal.ts';"), [
      'services must not import http (../http/hal.ts)',
    ]);
    assert.deepEqual(rules('delivery/x.ts', "export { a } from '../http/hrefs.ts';"), [
      'delivery must not import http (../http/hrefs.ts)',
    ]);
    assert.deepEqual(rules('http/routes/x.ts', "const w = import('../../delivery/worker.ts');"), [
      'http must not import delivery (../../delivery/worker.ts)',
    ]);
    assert.deepEqual(rules('services/x.ts', 'const sql = `UPDATE shifts SET name = $1`;'), [
      'SQL text belongs in src/db',
    ]);
    assert.deepEqual(rules('http/routes/x.ts', "await db.query('SELECT 1');"), [
      'SQL text belongs in src/db',
    ]);
    assert.deepEqual(rules('db/repositories/x.ts', "await db.query('SELECT id FROM shifts');"), []);
    assert.deepEqual(
      rules(
        'http/routes/x.ts',
        "import * as repository from '../../db/repositories/shifts.ts';\nrepository.listShifts(db); repository.deleteShift(db, id);",
      ),
      ['http writes through services, not db/repositories/shifts.ts: deleteShift'],
    );
    assert.deepEqual(
      rules('http/x.ts', "import { insertShift, findShift } from '../db/repositories/shifts.ts';"),
      ['http writes through services, not db/repositories/shifts.ts: insertShift'],
    );
    assert.deepEqual(
      rules('http/x.ts', "import { shiftWrites, findShift } from '../db/repositories/shifts.ts';"),
      ['http writes through services, not db/repositories/shifts.ts: shiftWrites'],
    );
    assert.deepEqual(rules('http/x.ts', "import { migrate } from '../db/migrate.ts';"), [
      'http may read repositories, not import db/migrate.ts',
    ]);
    assert.deepEqual(rules('http/x.ts', 'await db.transaction(async (tx) => tx);'), [
      'http opens no transaction: every write is one service call',
    ]);
    assert.deepEqual(rules('metrics/x.ts', "import { a } from '../services/x.ts';"), [
      'metrics must not import services (../services/x.ts)',
    ]);
    assert.deepEqual(rules('web/x.js', "import { a } from '../http/hal.ts';"), [
      'web must not import http (../http/hal.ts)',
    ]);
    assert.deepEqual(rules('nowhere/x.ts', ''), ['nowhere has no row in ALLOWED']);
    assert.deepEqual(rules('services/x.ts', 'const port = process.env.PORT;'), [
      'only config.ts reads process.env',
    ]);
    assert.deepEqual(rules('domain/x.ts', "import { a } from '../../bench/x.ts';"), [
      'domain imports nothing outside src',
    ]);
    const httpOnly: Violation[] = [];
    violationsOf('simulator/x.ts', "import { a } from '../db/open.ts';", httpOnly);
    assert.deepEqual(
      httpOnly.map((v) => v.rule),
      ['simulator talks HTTP only: not db/open.ts'],
    );
    assert.deepEqual(rules('cli/x.ts', 'const id = process.env.BRIDGE_CLIENT_ID;'), [
      'only config.ts reads process.env',
    ]);
    assert.deepEqual(rules('config.ts', 'loadConfig(process.env);'), []);
    // Comments and ordinary words are not SQL.
    assert.deepEqual(rules('services/x.ts', "// SELECT ... FOR UPDATE\nconst text = 'select a tool';"), []);
  });
});
