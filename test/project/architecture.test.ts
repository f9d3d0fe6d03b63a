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

/** Folders each folder must not import. */
const FORBIDDEN: Record<string, string[]> = {
  domain: ['db', 'http', 'services', 'delivery', 'auth', 'background', 'cli', 'config', 'root'],
  i18n: ['db', 'http', 'services', 'delivery', 'auth', 'background', 'cli', 'config', 'root'],
  background: ['db', 'http', 'services', 'delivery', 'auth', 'domain', 'i18n', 'cli', 'config', 'root'],
  db: ['http', 'services', 'delivery', 'auth', 'background', 'cli', 'root'],
  // services may ask delivery's address policy whether a callback URL can be reached.
  services: ['http', 'auth', 'cli', 'root'],
  delivery: ['http', 'services', 'auth', 'cli', 'root'],
  http: ['delivery', 'background', 'cli', 'root'],
  auth: ['http', 'services', 'delivery', 'background', 'cli', 'root'],
  // Connectors call services, never repositories: from db only the Database interface (below).
  connectors: ['http', 'auth', 'cli', 'root'],
};

/** Packages the pure layers may import: no I/O (files, network, processes, timers, drivers). */
const PURE_PACKAGES = new Set(['uuid']);
const PURE_LAYERS = new Set(['domain', 'i18n', 'background']);

/** The modules of src/db that http may use: repository reads, and the interface's types and errors. */
const HTTP_DB_MODULES = /^db\/(repositories\/[^/]+|database|paging)\.ts$/;
/** Repository functions that change data; http calls a service for these. */
const WRITE_FUNCTION =
  /^(insert|update|upsert|delete|remove|save|record|claim|lock|append|prune|fanOut|obsolete|close|migrate|add|create|replace|set|trim|next)/;

/** SQL statements as they are written here (upper-case keywords). */
const SQL =
  /\b(SELECT\b[\s\S]*\bFROM\b|SELECT\s+1\b|INSERT\s+INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|(CREATE|ALTER|DROP)\s+(TABLE|INDEX)\b)/;

export interface Violation {
  file: string;
  rule: string;
}

/** Checks one source file (`path` relative to src, e.g. 'services/shifts.ts'). */
export function violationsOf(path: string, text: string): Violation[] {
  const found: Violation[] = [];
  const layer = layerOf(path);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
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
    if (targetLayer !== layer && FORBIDDEN[layer]?.includes(targetLayer)) {
      found.push({ file: path, rule: `${layer} must not import ${targetLayer} (${specifier})` });
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
    // docs/architecture.md: settings are read in one place, so every one is validated and documented.
    if (
      layer !== 'config' &&
      ts.isPropertyAccessExpression(node) &&
      node.name.text === 'env' &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process'
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
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

describe('architecture', () => {
  test('every file under src keeps the layering rules', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 50, 'the scan sees the source tree');
    const found = files.flatMap((file) => violationsOf(file, readFileSync(join(SRC, file), 'utf8')));
    assert.deepEqual(found, []);
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
    assert.deepEqual(rules('http/x.ts', "import { migrate } from '../db/migrate.ts';"), [
      'http may read repositories, not import db/migrate.ts',
    ]);
    assert.deepEqual(rules('http/x.ts', 'await db.transaction(async (tx) => tx);'), [
      'http opens no transaction: every write is one service call',
    ]);
    assert.deepEqual(rules('cli/x.ts', 'const id = process.env.BRIDGE_CLIENT_ID;'), [
      'only config.ts reads process.env',
    ]);
    assert.deepEqual(rules('config.ts', 'loadConfig(process.env);'), []);
    // Comments and ordinary words are not SQL.
    assert.deepEqual(rules('services/x.ts', "// SELECT ... FOR UPDATE\nconst text = 'select a tool';"), []);
  });
});
