/**
 * vendesk/pinned-connection: what costs money takes its connection (docs/architecture.md).
 *
 * In the code that buys, settles or requeries — the purchase engine (`src/main/buying/`), the vending
 * detail (`src/main/purchases/`), the requery loop (`src/main/pending/`) and the team's runs of
 * purchases (the files `eslint.config.mjs` names) — no function reads the connection in use on its
 * own: `app.connection`, `app.client()` and `app.session()` are refused, on an app however it is
 * reached (`app`, `this.app`, `deps.app`), and so are `const { connection } = app` and a parameter
 * typed to reach them (`AppPart<'connection' | 'client' | 'session'>`). A function is given the
 * session (the connection and its client, as one value) it works on, or the connection it reads,
 * taken once where the work starts: an operation's handler, a loop's pass. Such a start inside these
 * folders (a loop's pass, the run's look at whether vendesk was switched away) says so on its line:
 * `// eslint-disable-next-line vendesk/pinned-connection -- why`.
 */

/** The App's members that read the connection in use. */
const AMBIENT = new Set(['connection', 'client', 'session']);

/** `app`, `this.app`, `deps.app`: an expression that names the App. */
function isApp(node) {
  if (!node) return false;
  if (node.type === 'Identifier') return node.name === 'app';
  if (node.type === 'MemberExpression' && !node.computed) return node.property.type === 'Identifier' && node.property.name === 'app';
  if (node.type === 'TSNonNullExpression') return isApp(node.expression);
  return false;
}

function memberName(node) {
  return node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier' ? node.property.name : null;
}

const WHY =
  'what buys, settles or requeries is given the session it works on (or the connection it reads), taken once by its handler or its loop’s pass (docs/architecture.md, What costs money takes its connection)';

export const pinnedConnectionRule = {
  meta: {
    type: 'problem',
    docs: { description: 'What buys, settles or requeries takes its connection as a parameter; it never reads the connection in use' },
    schema: [],
  },
  create(context) {
    const report = (node, what) => context.report({ node, message: `${what} reads the connection in use: ${WHY}.` });
    return {
      MemberExpression(node) {
        const name = memberName(node);
        if (!name || !AMBIENT.has(name) || !isApp(node.object)) return;
        const called = node.parent?.type === 'CallExpression' && node.parent.callee === node;
        if (name === 'connection' && !called) report(node, '`app.connection`');
        else if (name !== 'connection' && called) report(node, `\`app.${name}()\``);
        // Passed on as a function (`() => app.session` aside), it is a read all the same.
        else if (name !== 'connection' && node.parent?.type !== 'CallExpression') report(node, `\`app.${name}\``);
      },
      VariableDeclarator(node) {
        if (node.id.type !== 'ObjectPattern' || !isApp(node.init)) return;
        for (const p of node.id.properties) {
          if (p.type === 'Property' && p.key.type === 'Identifier' && AMBIENT.has(p.key.name)) report(p, `\`const { ${p.key.name} } = app\``);
        }
      },
      TSTypeReference(node) {
        const typeName = node.typeName;
        if (typeName.type !== 'Identifier' || typeName.name !== 'AppPart') return;
        const params = node.typeArguments?.params ?? node.typeParameters?.params ?? [];
        const literals = [];
        const collect = (t) => {
          if (t.type === 'TSUnionType') t.types.forEach(collect);
          else if (t.type === 'TSLiteralType' && typeof t.literal.value === 'string') literals.push(t.literal.value);
        };
        params.forEach(collect);
        const reached = literals.filter((l) => AMBIENT.has(l));
        if (reached.length > 0) report(node, `\`AppPart<${reached.map((r) => `'${r}'`).join(' | ')}>\` (a parameter that can reach it)`);
      },
    };
  },
};

export default { rules: { 'pinned-connection': pinnedConnectionRule } };
