import { SkillTemplateError } from './skill-template-error.js';
import { LINE_MARK } from './jinja-source-lines.js';

/** A node of the engine's parsed template. */
export type JinjaNode = { type: string; [key: string]: unknown };

/** The comment put first in every loop body, so loop iterations can be counted. */
export const ITERATION_MARK = '\u0000iteration';
const MAX_TOJSON_INDENT = 16;

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

/** Refuses what the sandbox does not allow and marks every loop body so iterations can be counted. */
export function checkTemplate(program: JinjaNode, skill: string): void {
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
    if (typeof value !== 'object' || value === null || typeof (value as JinjaNode).type !== 'string') return;
    const node = value as JinjaNode;
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
        (node.body as JinjaNode[]).unshift({ type: 'Comment', value: ITERATION_MARK });
        break;
      case 'FilterExpression':
      case 'FilterStatement': {
        const name = filterName(node.filter as JinjaNode);
        if (name === undefined || !JINJA_FILTERS.has(name))
          refuse(`the filter "${name ?? '?'}" is not available (use one of ${[...JINJA_FILTERS].join(', ')})`);
        if (name === 'tojson') checkToJsonArguments(node.filter as JinjaNode, refuse);
        break;
      }
      case 'CallExpression': {
        const callee = node.callee as JinjaNode;
        if (callee.type === 'Identifier') {
          if (!JINJA_FUNCTIONS.has(String(callee.value)))
            refuse(`the function "${String(callee.value)}" is not available`);
        } else if (callee.type === 'MemberExpression' && !(callee.computed as boolean)) {
          const method = String((callee.property as JinjaNode).value);
          if (!JINJA_METHODS.has(method)) refuse(`the method "${method}" is not available`);
        } else refuse('only named functions and methods can be called');
        break;
      }
    }
    for (const [key, child] of Object.entries(node))
      if (key !== 'type' && key !== 'filter' && typeof child === 'object') visit(child);
    // A filter's own arguments may hold expressions too.
    const filter = node.filter as JinjaNode | undefined;
    if (filter?.type === 'CallExpression') visit(filter.args);
  };
  visit(program);
}

function checkToJsonArguments(filter: JinjaNode, refuse: (problem: string) => never): void {
  if (filter.type !== 'CallExpression') return;
  for (const argument of filter.args as JinjaNode[]) {
    const value = argument.type === 'KeywordArgumentExpression' ? (argument.value as JinjaNode) : argument;
    const key = argument.type === 'KeywordArgumentExpression' ? (argument.key as JinjaNode).value : undefined;
    if (key === 'indent' || key === undefined) {
      if (value.type !== 'IntegerLiteral' || (value.value as number) > MAX_TOJSON_INDENT)
        refuse(`tojson indent must be a whole number up to ${MAX_TOJSON_INDENT}`);
    }
  }
}

export function filterName(filter: JinjaNode): string | undefined {
  if (filter.type === 'Identifier') return String(filter.value);
  if (filter.type === 'CallExpression' && (filter.callee as JinjaNode).type === 'Identifier')
    return String((filter.callee as JinjaNode).value);
  return undefined;
}
