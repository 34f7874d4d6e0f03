// Stryker ignore-plugins (decision 056): mutants that only rewrite SQL text or log text. Either one
// is still *reported* (as ignored), it is just not run. A wrong word inside SQL breaks the query or
// moves the wrong amount, and the balance-delta tests (trackBalances) catch that; an emptied query
// string fails every test that touches it, so running those mutants costs hours and teaches nothing.
// Log messages are not behaviour.

/** An interpolation that holds no logic of ours: a name, a property, a literal, a cast. */
function isPlain(node) {
  switch (node.type) {
    case 'Identifier':
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'ThisExpression':
      return true;
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return isPlain(node.object) && (!node.computed || isPlain(node.property));
    case 'TSAsExpression':
    case 'TSNonNullExpression':
      return isPlain(node.expression);
    case 'TemplateLiteral':
      return node.expressions.every(isPlain);
    default:
      return false;
  }
}

const isSqlTag = (node) => node.type === 'Identifier' && node.name === 'sql';
const isSqlRaw = (node) =>
  node.type === 'MemberExpression' &&
  isSqlTag(node.object) &&
  node.property.type === 'Identifier' &&
  node.property.name === 'raw';

const sqlText = {
  shouldIgnore(path) {
    const { node, parent } = path;
    // sql`…`: only when every ${…} in it is plain, so no logic hides inside an ignored template.
    if (node.type === 'TemplateLiteral' && parent?.type === 'TaggedTemplateExpression' && isSqlTag(parent.tag)) {
      return node.expressions.every(isPlain) ? 'SQL text: covered by the balance-delta tests (decision 056)' : undefined;
    }
    // sql.raw('…') / sql.raw(`…`)
    if (node.type === 'CallExpression' && isSqlRaw(node.callee) && node.arguments.every(isPlain)) {
      return 'SQL text: covered by the balance-delta tests (decision 056)';
    }
    return undefined;
  },
};

const LOG_LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const isLogger = (node) =>
  (node.type === 'Identifier' && /^(log|logger)$/.test(node.name)) ||
  (node.type === 'MemberExpression' && node.property.type === 'Identifier' && /^(log|logger)$/.test(node.property.name));

const logText = {
  shouldIgnore(path) {
    const { node } = path;
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      node.callee.property.type === 'Identifier' &&
      LOG_LEVELS.has(node.callee.property.name) &&
      isLogger(node.callee.object)
    ) {
      return 'Log text: not behaviour (decision 056)';
    }
    return undefined;
  },
};

// The plugin shape of @stryker-mutator/api's declareValuePlugin(PluginKind.Ignore, …), written out so
// this file needs no import of a package we do not depend on directly.
export const strykerPlugins = [
  { kind: 'Ignore', name: 'SqlText', value: sqlText },
  { kind: 'Ignore', name: 'LogText', value: logText },
];
