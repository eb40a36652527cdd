import { Environment, Interpreter, parse, tokenize } from '@huggingface/jinja';
import {
  boundedJoin,
  boundedRange,
  boundedReplace,
  LimitSignal,
  StringValue,
  toInertJson,
  toRuntime,
  type RuntimeValue,
} from './jinja-runtime-values.js';
import { lexerErrorLine, markedLine, markLines, parserErrorLine, scanTags } from './jinja-source-lines.js';
import { checkTemplate, filterName, ITERATION_MARK, type JinjaNode } from './jinja-template-check.js';
import { SkillTemplateError } from './skill-template-error.js';
import { SKILL_TEMPLATE_LIMITS, SkillTemplateLimitError } from './skill-template-limit-error.js';

export { JINJA_FILTERS, JINJA_FUNCTIONS, JINJA_METHODS } from './jinja-template-check.js';
export { toInertJson } from './jinja-runtime-values.js';

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
 * - line numbers (`jinja-source-lines.ts`): the lexer has no positions, so the tags are scanned and a marker is put
 *   before each one; errors name the line of the tag that was running (or failed to parse).
 *
 * Whitespace: `trim_blocks` and `lstrip_blocks` are on (a block tag alone on its line leaves no blank line),
 * as in the engine's own `Template`.
 */

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


type Node = JinjaNode;
type Evaluate = (node: Node | undefined, environment: Environment) => RuntimeValue;
interface InterpreterInternals {
  evaluate: Evaluate;
  applyFilter(operand: RuntimeValue, filter: Node, environment: Environment): RuntimeValue;
  evaluateArguments(args: unknown[], environment: Environment): [RuntimeValue[], Map<string, RuntimeValue>];
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
    const marked = markLines(tokens, tags);
    let program: Node;
    try {
      program = parse(marked as never) as unknown as Node;
    } catch (error) {
      throw new SkillTemplateError(skill, parserErrorLine(marked), parseProblem(error));
    }
    checkTemplate(program, skill);
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
          const line = markedLine(text);
          if (line !== undefined) state.line = line;
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
