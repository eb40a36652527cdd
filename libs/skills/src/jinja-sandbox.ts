import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';
import { SkillTemplateError } from './skill-template-error.js';
import {
  SKILL_TEMPLATE_LIMITS,
  SkillTemplateLimitError,
  type SkillTemplateLimit,
} from './skill-template-limit-error.js';

/**
 * Jinja-style skill templates in a sandbox, on `@huggingface/jinja`.
 *
 * Why this engine: it is a self-contained interpreter written for untrusted templates (chat templates
 * downloaded with model weights). Every value lives in its own runtime classes — objects are `Map`s, method
 * lookups go through fixed `builtins` maps — so `x.constructor`, `x.__proto__`, `x.toString` and the like
 * resolve to nothing: no JavaScript object, prototype, global or function is reachable from a template. It
 * has no file loader at all (`include`, `import`, `extends` do not exist). Nunjucks, the other mature Jinja
 * port, compiles templates to JavaScript source and resolves member access on real JS objects (its
 * sandboxing history includes prototype-reaching escapes), and it loads templates from the filesystem;
 * it is the wrong base for bodies written by strangers. LiquidJS is sandboxed too but speaks Liquid, not the
 * Jinja/Tera syntax the seed skills use.
 *
 * What this module adds on top:
 * - a static allowlist over the parsed template: the filters, functions and methods below; no macros or
 *   `call` blocks (unbounded recursion); `tojson` indent only as a small literal;
 * - strict variables: a name or member that is undefined is an error naming it, unless it is the operand of
 *   `default` or of an `is defined` / `is undefined` test;
 * - limits, each a typed {@link SkillTemplateLimitError}: characters of the result, characters produced in all
 *   (the work a template may do), loop iterations, evaluation steps, items of one list (`range` included);
 *   `join` and `replace` check the size of their result before building it;
 * - line numbers: the lexer has no positions, so the template's tags are scanned here and a marker is put
 *   before each one; errors name the line of the tag that was running (or failed to parse).
 *
 * Whitespace: `trim_blocks` and `lstrip_blocks` are on (a block tag alone on its line leaves no blank line),
 * as in the engine's own `Template`.
 */

/** Filters a template may use. */
export const JINJA_FILTERS: ReadonlySet<string> = new Set([
  'join',
  'default',
  'upper',
  'lower',
  'length',
  'first',
  'last',
  'replace',
  'trim',
  'tojson',
  'title',
  'capitalize',
  'list',
  'sort',
  'reverse',
  'unique',
  'string',
  'int',
  'float',
  'abs',
  'items',
  'safe',
  'map',
  'selectattr',
  'rejectattr',
]);
/** Functions a template may call. */
export const JINJA_FUNCTIONS: ReadonlySet<string> = new Set(['range', 'namespace']);
/** Methods a template may call on a value (`name.upper()`, `dict.items()`). */
export const JINJA_METHODS: ReadonlySet<string> = new Set([
  'upper',
  'lower',
  'strip',
  'lstrip',
  'rstrip',
  'title',
  'capitalize',
  'startswith',
  'endswith',
  'split',
  'items',
  'keys',
  'values',
  'get',
]);

/** Limits of one render. */
export interface JinjaLimits {
  /** Characters of the rendered result. Default 262,144 (256 Ki). */
  maxOutputChars: number;
  /** Characters of all strings produced while rendering (nested output counts again). Default 4,194,304. */
  maxWorkChars: number;
  /** Loop iterations over the whole render. Default 10,000. */
  maxLoopIterations: number;
  /** Evaluated expressions and statements. Default 200,000. */
  maxSteps: number;
  /** Items of one list, `range` included. Default 10,000. */
  maxItems: number;
}

/** Defaults of {@link JinjaLimits}. */
export const DEFAULT_JINJA_LIMITS: Readonly<JinjaLimits> = Object.freeze({
  maxOutputChars: 256 * 1024,
  maxWorkChars: 4 * 1024 * 1024,
  maxLoopIterations: 10_000,
  maxSteps: 200_000,
  maxItems: 10_000,
});

const LINE_MARK = '\u0000line:';
const ITERATION_MARK = '\u0000iteration';
const MAX_TOJSON_INDENT = 16;

type Node = { type: string; [key: string]: unknown };
type RuntimeValue = { type: string; value: unknown; __bool__(): { value: boolean } };
type Evaluate = (node: Node | undefined, environment: Environment) => RuntimeValue;
interface InterpreterInternals {
  evaluate: Evaluate;
  applyFilter(operand: RuntimeValue, filter: Node, environment: Environment): RuntimeValue;
  evaluateArguments(args: unknown[], environment: Environment): [RuntimeValue[], Map<string, RuntimeValue>];
}

class LimitSignal extends Error {
  constructor(
    readonly limit: SkillTemplateLimit,
    readonly max: number,
  ) {
    super(limit);
  }
}

/** A parsed, checked template; render it as often as needed (each render is independent). */
export class JinjaTemplate {
  private constructor(
    private readonly program: Node,
    readonly skill: string,
  ) {}

  /** Parses and checks a template; throws {@link SkillTemplateError} with the line of the problem. */
  static compile(source: string, skill: string): JinjaTemplate {
    const tags = scanTags(source);
    let tokens: Array<{ type: string; value: string }>;
    try {
      tokens = tokenize(source, { lstrip_blocks: true, trim_blocks: true }) as typeof tokens;
    } catch (error) {
      throw new SkillTemplateError(skill, lexerErrorLine(tags), messageOf(error));
    }
    const marked: typeof tokens = [];
    let tag = 0;
    for (const token of tokens) {
      if ((token.type === 'OpenStatement' || token.type === 'OpenExpression') && tag < tags.length)
        marked.push({ type: 'Comment', value: `${LINE_MARK}${tags[tag++]!.line}` });
      marked.push(token);
    }
    let program: Node;
    try {
      program = parse(marked as never) as unknown as Node;
    } catch (error) {
      throw new SkillTemplateError(skill, parserErrorLine(marked), parseProblem(error));
    }
    checkTree(program, skill);
    return new JinjaTemplate(program, skill);
  }

  /**
   * Renders with these variables (JSON data; anything else is dropped). Throws {@link SkillTemplateError}
   * for an undefined variable or a runtime problem, {@link SkillTemplateLimitError} at a limit.
   */
  render(variables: Readonly<Record<string, unknown>>, limits: Partial<JinjaLimits> = {}): string {
    const max: JinjaLimits = { ...DEFAULT_JINJA_LIMITS, ...limits };
    const state = { line: undefined as number | undefined, steps: 0, work: 0, iterations: 0, lenient: 0 };
    const environment = new Environment();
    for (const [name, value] of Object.entries(GLOBALS)) environment.set(name, value);
    environment.set('range', (start: unknown, stop?: unknown, step?: unknown) =>
      boundedRange(start, stop, step, max.maxItems),
    );
    for (const [name, value] of Object.entries(variables)) {
      const inert = toInertJson(value, 0);
      if (inert !== undefined) environment.setVariable(name, toRuntime(environment, inert));
    }
    const interpreter = new Interpreter(environment) as unknown as InterpreterInternals;
    const evaluate = interpreter.evaluate.bind(interpreter);
    const applyFilter = interpreter.applyFilter.bind(interpreter);
    const lenient = <T>(work: () => T): T => {
      state.lenient++;
      try {
        return work();
      } finally {
        state.lenient--;
      }
    };
    interpreter.evaluate = (node, scope) => {
      if (++state.steps > max.maxSteps) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.steps, max.maxSteps);
      let result: RuntimeValue;
      switch (node?.type) {
        case 'Comment': {
          const text = String(node.value);
          if (text === ITERATION_MARK && ++state.iterations > max.maxLoopIterations)
            throw new LimitSignal(SKILL_TEMPLATE_LIMITS.loopIterations, max.maxLoopIterations);
          if (text.startsWith(LINE_MARK)) state.line = Number(text.slice(LINE_MARK.length));
          return evaluate(node, scope);
        }
        case 'Identifier':
        case 'MemberExpression':
          result = evaluate(node, scope);
          if (result.type === 'UndefinedValue' && state.lenient === 0)
            throw new Error(`"${describe(node)}" is undefined`);
          return result;
        case 'FilterExpression': {
          const filter = node.filter as Node;
          const name = filterName(filter);
          if (name === 'default') {
            const operand = lenient(() => interpreter.evaluate(node.operand as Node, scope));
            result = applyFilter(operand, filter, scope);
          } else result = evaluate(node, scope);
          break;
        }
        case 'TestExpression': {
          const test = (node.test as Node).value;
          result =
            test === 'defined' || test === 'undefined'
              ? lenient(() => evaluate(node, scope))
              : evaluate(node, scope);
          break;
        }
        default:
          result = evaluate(node, scope);
      }
      if (result.type === 'StringValue') {
        const length = (result.value as string).length;
        if (length > max.maxOutputChars)
          throw new LimitSignal(SKILL_TEMPLATE_LIMITS.output, max.maxOutputChars);
        state.work += length;
        if (state.work > max.maxWorkChars) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.work, max.maxWorkChars);
      } else if (Array.isArray(result.value) && result.value.length > max.maxItems)
        throw new LimitSignal(SKILL_TEMPLATE_LIMITS.items, max.maxItems);
      return result;
    };
    interpreter.applyFilter = (operand, filter, scope) => {
      const name = filterName(filter);
      if ((name === 'join' || name === 'replace') && filter.type === 'CallExpression') {
        const [args] = interpreter.evaluateArguments(filter.args as unknown[], scope);
        return name === 'join'
          ? boundedJoin(environment, operand, args, max.maxOutputChars)
          : boundedReplace(environment, operand, args, max.maxOutputChars);
      }
      if (name === 'join') return boundedJoin(environment, operand, [], max.maxOutputChars);
      // The engine answers these through a string's lazily built method table (a dozen closures per string).
      if (typeof operand.value === 'string' && filter.type === 'Identifier') {
        if (name === 'upper') return new StringValue(operand.value.toUpperCase());
        if (name === 'lower') return new StringValue(operand.value.toLowerCase());
        if (name === 'trim') return new StringValue(operand.value.trim());
      }
      return applyFilter(operand, filter, scope);
    };
    try {
      const rendered = interpreter.evaluate(this.program, environment);
      return String(rendered.value ?? '');
    } catch (error) {
      if (error instanceof LimitSignal)
        throw new SkillTemplateLimitError(this.skill, error.limit, error.max, state.line);
      throw new SkillTemplateError(this.skill, state.line, messageOf(error));
    }
  }
}

const GLOBALS: Record<string, unknown> = {
  true: true,
  false: false,
  none: null,
  True: true,
  False: false,
  None: null,
};

/** One `{{ … }}` or `{% … %}` tag of the source, with the line it starts on. */
interface SourceTag {
  line: number;
  text: string;
}

/** The tags of a template in order (comments skipped, quoted strings inside tags respected). */
function scanTags(source: string): SourceTag[] {
  const tags: SourceTag[] = [];
  let line = 1;
  let position = 0;
  const advanceTo = (index: number) => {
    for (let i = position; i < index; i++) if (source.charCodeAt(i) === 10) line++;
    position = index;
  };
  for (;;) {
    const open = source.indexOf('{', position);
    if (open < 0 || open + 1 >= source.length) break;
    const kind = source[open + 1];
    if (kind !== '{' && kind !== '%' && kind !== '#') {
      advanceTo(open + 1);
      continue;
    }
    advanceTo(open);
    if (kind === '#') {
      const close = source.indexOf('#}', open + 2);
      advanceTo(close < 0 ? source.length : close + 2);
      continue;
    }
    const closer = kind === '{' ? '}}' : '%}';
    let index = open + 2;
    let quote: string | undefined;
    let depth = 0;
    while (index < source.length) {
      const char = source[index]!;
      if (quote !== undefined) {
        if (char === '\\') index++;
        else if (char === quote) quote = undefined;
      } else if (char === '"' || char === "'") quote = char;
      else if (depth === 0 && source.startsWith(closer, index)) break;
      else if (char === '{') depth++;
      else if (char === '}') depth--;
      index++;
    }
    const end = Math.min(source.length, index + 2);
    tags.push({ line, text: source.slice(open, end) });
    advanceTo(end);
  }
  return tags;
}

/** The line of the first tag that does not tokenize on its own. */
function lexerErrorLine(tags: readonly SourceTag[]): number | undefined {
  for (const tag of tags) {
    try {
      tokenize(tag.text);
    } catch {
      return tag.line;
    }
  }
  return tags.at(-1)?.line;
}

/** The line marker nearest before the furthest token the parser looked at. */
function parserErrorLine(tokens: ReadonlyArray<{ type: string; value: string }>): number | undefined {
  let furthest = 0;
  const watched = new Proxy(tokens as Array<{ type: string; value: string }>, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) furthest = Math.max(furthest, Number(key));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    parse(watched as never);
  } catch {
    // The same error again; only the position matters here.
  }
  for (let index = Math.min(furthest, tokens.length - 1); index >= 0; index--) {
    const token = tokens[index]!;
    if (token.type === 'Comment' && token.value.startsWith(LINE_MARK))
      return Number(token.value.slice(LINE_MARK.length));
  }
  return undefined;
}

/** Refuses what the sandbox does not allow and marks every loop body so iterations can be counted. */
function checkTree(program: Node, skill: string): void {
  let line: number | undefined;
  const refuse = (problem: string): never => {
    throw new SkillTemplateError(skill, line, problem);
  };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (value instanceof Map) {
      for (const [key, item] of value) {
        visit(key);
        visit(item);
      }
      return;
    }
    if (typeof value !== 'object' || value === null || typeof (value as Node).type !== 'string') return;
    const node = value as Node;
    switch (node.type) {
      case 'Comment':
        if (String(node.value).startsWith(LINE_MARK))
          line = Number(String(node.value).slice(LINE_MARK.length));
        return;
      case 'Macro':
      case 'CallStatement':
        refuse('macros and call blocks are not supported in skill templates');
        break;
      case 'For':
        (node.body as Node[]).unshift({ type: 'Comment', value: ITERATION_MARK });
        break;
      case 'FilterExpression':
      case 'FilterStatement': {
        const name = filterName(node.filter as Node);
        if (name === undefined || !JINJA_FILTERS.has(name))
          refuse(`the filter "${name ?? '?'}" is not available (use one of ${[...JINJA_FILTERS].join(', ')})`);
        if (name === 'tojson') checkToJsonArguments(node.filter as Node, refuse);
        break;
      }
      case 'CallExpression': {
        const callee = node.callee as Node;
        if (callee.type === 'Identifier') {
          if (!JINJA_FUNCTIONS.has(String(callee.value)))
            refuse(`the function "${String(callee.value)}" is not available`);
        } else if (callee.type === 'MemberExpression' && !(callee.computed as boolean)) {
          const method = String((callee.property as Node).value);
          if (!JINJA_METHODS.has(method)) refuse(`the method "${method}" is not available`);
        } else refuse('only named functions and methods can be called');
        break;
      }
    }
    for (const [key, child] of Object.entries(node))
      if (key !== 'type' && key !== 'filter' && typeof child === 'object') visit(child);
    // A filter's own arguments may hold expressions too.
    const filter = node.filter as Node | undefined;
    if (filter?.type === 'CallExpression') visit(filter.args);
  };
  visit(program);
}

function checkToJsonArguments(filter: Node, refuse: (problem: string) => never): void {
  if (filter.type !== 'CallExpression') return;
  for (const argument of filter.args as Node[]) {
    const value = argument.type === 'KeywordArgumentExpression' ? (argument.value as Node) : argument;
    const key = argument.type === 'KeywordArgumentExpression' ? (argument.key as Node).value : undefined;
    if (key === 'indent' || key === undefined) {
      if (value.type !== 'IntegerLiteral' || (value.value as number) > MAX_TOJSON_INDENT)
        refuse(`tojson indent must be a whole number up to ${MAX_TOJSON_INDENT}`);
    }
  }
}

function filterName(filter: Node): string | undefined {
  if (filter.type === 'Identifier') return String(filter.value);
  if (filter.type === 'CallExpression' && (filter.callee as Node).type === 'Identifier')
    return String((filter.callee as Node).value);
  return undefined;
}

function describe(node: Node): string {
  if (node.type === 'Identifier') return String(node.value);
  if (node.type === 'MemberExpression') {
    const property = node.property as Node;
    const object = describe(node.object as Node);
    return node.computed
      ? `${object}[${property.type === 'StringLiteral' || property.type === 'IntegerLiteral' ? JSON.stringify(property.value) : '…'}]`
      : `${object}.${String(property.value)}`;
  }
  if (node.type === 'StringLiteral') return JSON.stringify(node.value);
  if (node.type === 'IntegerLiteral' || node.type === 'FloatLiteral') return String(node.value);
  return 'expression';
}

function boundedRange(start: unknown, stop: unknown, step: unknown, maxItems: number): number[] {
  const [from, to] = stop === undefined || stop === null ? [0, Number(start)] : [Number(start), Number(stop)];
  const by = step === undefined || step === null ? 1 : Number(step);
  if (![from, to, by].every(Number.isFinite) || by === 0)
    throw new Error('range() needs finite numbers and a step other than zero');
  const count = Math.max(0, Math.ceil((to - from) / by));
  if (count > maxItems) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.items, maxItems);
  return Array.from({ length: count }, (_, index) => from + index * by);
}

function boundedJoin(
  environment: Environment,
  operand: RuntimeValue,
  args: RuntimeValue[],
  maxChars: number,
): RuntimeValue {
  const separator = args[0] === undefined ? '' : String(args[0].value);
  const items = Array.isArray(operand.value)
    ? (operand.value as RuntimeValue[]).map((item) => runtimeText(item))
    : typeof operand.value === 'string'
      ? [...operand.value]
      : undefined;
  if (items === undefined) throw new Error(`cannot join a ${operand.type}`);
  const size = items.reduce((sum, item) => sum + item.length, 0) + separator.length * (items.length - 1);
  if (size > maxChars) throw new LimitSignal(SKILL_TEMPLATE_LIMITS.output, maxChars);
  return toRuntime(environment, items.join(separator));
}

function boundedReplace(
  environment: Environment,
  operand: RuntimeValue,
  args: RuntimeValue[],
  maxChars: number,
): RuntimeValue {
  if (typeof operand.value !== 'string') throw new Error(`cannot replace in a ${operand.type}`);
  const [search, replacement, count] = args;
  if (search === undefined || replacement === undefined)
    throw new Error('replace needs the text to find and its replacement');
  const text = operand.value;
  const find = String(search.value);
  const by = String(replacement.value);
  const limit = count === undefined ? Infinity : Number(count.value);
  const parts = text.split(find);
  const replaced = Math.min(parts.length - 1, limit);
  if (text.length + replaced * (by.length - find.length) > maxChars)
    throw new LimitSignal(SKILL_TEMPLATE_LIMITS.output, maxChars);
  if (replaced === parts.length - 1) return toRuntime(environment, parts.join(by));
  return toRuntime(
    environment,
    parts.slice(0, replaced + 1).join(by) + find + parts.slice(replaced + 1).join(find),
  );
}

/** How a value prints inside a join (strings as they are, other values as the engine prints them). */
function runtimeText(value: RuntimeValue): string {
  return typeof value.value === 'string' ? value.value : String(value);
}

const StringValue = (new Environment().set('text', '') as object).constructor as new (
  value: string,
) => RuntimeValue;

/** A JSON value as one of the engine's runtime values. */
function toRuntime(environment: Environment, value: unknown): RuntimeValue {
  if (typeof value === 'string') return new StringValue(value);
  return new Environment(environment).set('value', value) as unknown as RuntimeValue;
}

/** A copy holding only JSON data (functions, symbols and non-finite numbers dropped), depth-limited. */
export function toInertJson(value: unknown, depth: number): unknown {
  if (depth > 16) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value))
    return value.map((item) => toInertJson(item, depth + 1)).filter((item) => item !== undefined);
  if (typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const inert = toInertJson(item, depth + 1);
      if (inert !== undefined) Object.defineProperty(copy, key, { value: inert, enumerable: true });
    }
    return copy;
  }
  return undefined;
}

/** The parser's complaint in the words of a skill author. */
function parseProblem(error: unknown): string {
  const message = messageOf(error);
  const statement = /^Unknown statement type: (\w+)/.exec(message)?.[1];
  if (statement === 'include' || statement === 'import' || statement === 'extends' || statement === 'from')
    return `{% ${statement} %} is not supported: a skill template cannot load other templates or files`;
  if (error instanceof TypeError)
    return 'the template ends inside an open block (a {% for %}, {% if %} or {% set %} without its end tag)';
  return message;
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300);
}
