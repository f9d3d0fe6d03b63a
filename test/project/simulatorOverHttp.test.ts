// The demo's seeder and simulator are API clients (docs/demo.md): every module under
// src/simulator, and everything those import in turn, stays clear of the service's insides
// (the database, the services, auth, the HTTP layer and the app that wires them). Only type
// imports may name them; they are gone when the code runs.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = new URL('../../', import.meta.url).pathname;
const SIMULATOR = join(ROOT, 'src', 'simulator');
/** What a module reached from the simulator must not be (paths relative to the repository). */
const INSIDES = /^src\/(db|services|auth|http|connectors|delivery)\/|^src\/(app|main|demo)\.ts$/;

/** The relative modules a file imports at run time (static and dynamic; type-only ones left out). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      const allTypes =
        ts.isImportDeclaration(node) &&
        node.importClause?.namedBindings &&
        ts.isNamedImports(node.importClause.namedBindings) &&
        !node.importClause.name &&
        node.importClause.namedBindings.elements.every((element) => element.isTypeOnly);
      if (!typeOnly && !allTypes) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier));
}

test('src/simulator reaches the service over HTTP only: no module of its import graph is the service', () => {
  const start = readdirSync(SIMULATOR)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(SIMULATOR, name));
  assert.ok(start.length >= 4, 'the simulator modules are found');
  const seen = new Map<string, string>();
  const queue = start.map((file) => [file, relative(ROOT, file)] as const);
  const violations: string[] = [];
  while (queue.length > 0) {
    const [file, via] = queue.shift() as readonly [string, string];
    const path = relative(ROOT, file);
    if (seen.has(path)) continue;
    seen.set(path, via);
    if (INSIDES.test(path)) {
      violations.push(`${path} (imported through ${via})`);
      continue;
    }
    for (const target of runtimeImports(file)) queue.push([target, path]);
  }
  assert.deepEqual(violations, []);
  // The graph does reach the typed client, the way it talks to the service.
  assert.ok([...seen.keys()].some((path) => path.startsWith('clients/typescript/src/')));
});
