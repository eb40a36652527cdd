import { Parser } from 'htmlparser2';

/** A page reduced to what a reader sees: its title and its text, with headings and links kept. */
export interface ReadablePage {
  title: string;
  text: string;
}

// Elements whose content is never shown as text.
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'object',
  'canvas',
  'select',
  'button',
]);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hr',
  'html',
  'main',
  'nav',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'ul',
]);
// CSS that hides an element from a reader: `display:none`, `visibility:hidden|collapse`,
// `content-visibility:hidden`, and the zero-opacity / zero-size tricks (exact zeros only, so
// `font-size:0.9em` stays visible).
const HIDING_STYLE =
  /(?:^|;)(?:display:none|visibility:(?:hidden|collapse)|content-visibility:hidden|opacity:0(?:\.0+)?|font-size:0(?:px|em|rem|%)?)(?:!important)?(?:;|$)/;

/**
 * Deepest nesting of open elements read. Real pages stay far below; htmlparser2 keeps its open-element
 * stack with `unshift`, so each level costs as much as the levels above it, and a page of 100,000 nested
 * `<div>`s would take seconds. Past this depth the rest of the page is not read, and the text says so.
 */
export const MAX_HTML_NESTING = 1_000;

/** Classes and ids that the page's own `<style>` elements hide. */
interface HiddenSelectors {
  classes: Set<string>;
  ids: Set<string>;
}

// Hidden text is a favourite place for instructions aimed at a model; a reader would not see it.
function isHidden(attributes: Readonly<Record<string, string>>, selectors: HiddenSelectors): boolean {
  const style = (attributes.style ?? '').replace(/\s+/g, '').toLowerCase();
  return (
    Object.hasOwn(attributes, 'hidden') ||
    (attributes['aria-hidden'] ?? '').trim().toLowerCase() === 'true' ||
    HIDING_STYLE.test(style) ||
    (attributes.id !== undefined && selectors.ids.has(attributes.id)) ||
    (attributes.class ?? '').split(/\s+/).some((name) => selectors.classes.has(name))
  );
}

/**
 * Reads the top-level rules of a stylesheet and records the `.class` and `#id` selectors whose
 * declarations hide (as {@link HIDING_STYLE}). Rules inside at-rules (`@media print`, …) and any other
 * selector are left alone, so nothing visible is dropped by a guess.
 */
function collectHiddenSelectors(css: string, selectors: HiddenSelectors): void {
  const text = withoutComments(css);
  let depth = 0;
  let start = 0;
  let prelude = '';
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '{') {
      if (depth === 0) {
        prelude = text.slice(start, index).trim();
        start = index + 1;
      }
      depth += 1;
    } else if (char === '}' && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        const block = text.slice(start, index);
        if (!prelude.startsWith('@') && !block.includes('{')) recordRule(prelude, block, selectors);
        start = index + 1;
      }
    }
  }
}

// By hand, not with a lazy regex: an unterminated `/*` repeated many times would make that quadratic.
function withoutComments(css: string): string {
  let result = '';
  let position = 0;
  for (let open = css.indexOf('/*'); open !== -1; open = css.indexOf('/*', position)) {
    result += css.slice(position, open);
    const close = css.indexOf('*/', open + 2);
    if (close === -1) return result;
    position = close + 2;
  }
  return result + css.slice(position);
}

function recordRule(prelude: string, declarations: string, selectors: HiddenSelectors): void {
  if (!HIDING_STYLE.test(declarations.replace(/\s+/g, '').toLowerCase())) return;
  for (const selector of prelude.split(',')) {
    const simple = /^([.#])(-?[A-Za-z_][\w-]*)$/.exec(selector.trim());
    if (simple === null) continue;
    (simple[1] === '.' ? selectors.classes : selectors.ids).add(simple[2]);
  }
}

function resolveLink(href: string, baseUrl: string | undefined): string | undefined {
  try {
    const url = new URL(href, baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Turns HTML into readable text with htmlparser2 (a linear, spec-minded tokenizer: implied end tags such
 * as `<p>` closing an open `<p>`, raw-text elements, all 2,231 named character references via `entities`).
 * What a reader would not see is dropped: `<script>`, `<style>`, `<noscript>`, `<template>` and other
 * non-text elements, and any element with the `hidden` attribute, `aria-hidden="true"` or an inline style
 * that hides it (`display:none`, `visibility:hidden`, …) together with everything inside it. Headings
 * become `#` lines, list items `- `, links `text (url)` resolved against `baseUrl`, images their alt
 * text; whitespace is collapsed (kept inside `<pre>`). The page's own `<style>` elements are read for
 * top-level `.class` and `#id` rules that hide, applied to the elements after them; other selectors,
 * external stylesheets, media queries and scripts are not evaluated. Reading stops at
 * {@link MAX_HTML_NESTING} open elements.
 */
export function htmlToText(html: string, baseUrl?: string): ReadablePage {
  const out: string[] = [];
  let title = '';
  let titleText: string[] | undefined;
  let tooDeep = false;
  let firstHeading = '';
  let headingStart = 0;
  let preDepth = 0;
  // Open elements, each marked whether it hides its content; `hiddenDepth` counts the marked ones.
  const open: { name: string; hides: boolean }[] = [];
  let hiddenDepth = 0;
  const links: { href: string | undefined; start: number }[] = [];
  const hiddenSelectors: HiddenSelectors = { classes: new Set(), ids: new Set() };
  let styleText: string[] | undefined;

  const push = (text: string) => {
    if (hiddenDepth === 0) out.push(text);
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (open.length >= MAX_HTML_NESTING) {
          tooDeep = true;
          parser.pause();
          return;
        }
        const hides = SKIPPED.has(name) || isHidden(attributes, hiddenSelectors);
        if (name === 'style') styleText = [];
        open.push({ name, hides });
        if (hides) hiddenDepth += 1;
        if (name === 'title' && title === '') titleText = [];
        if (hides || hiddenDepth > 0) return;
        const heading = /^h([1-6])$/.exec(name);
        if (heading !== null) {
          out.push(`\n\n${'#'.repeat(Number(heading[1]))} `);
          headingStart = out.length;
        } else if (name === 'br') out.push('\n');
        else if (name === 'li') out.push('\n- ');
        else if (name === 'tr') out.push('\n');
        else if (name === 'td' || name === 'th') out.push(' ');
        else if (name === 'pre') {
          preDepth += 1;
          out.push('\n\n');
        } else if (BLOCK.has(name)) out.push('\n\n');
        else if (name === 'img') {
          const alt = (attributes.alt ?? '').trim();
          if (alt !== '') out.push(`[image: ${alt}]`);
        } else if (name === 'a')
          links.push({ href: resolveLink(attributes.href ?? '', baseUrl), start: out.length });
      },
      ontext(text) {
        if (styleText !== undefined) {
          styleText.push(text);
          return;
        }
        if (titleText !== undefined) {
          titleText.push(text);
          return;
        }
        if (hiddenDepth > 0 || text === '') return;
        if (preDepth > 0) {
          out.push(text);
          return;
        }
        const collapsed = text.replace(/\s+/g, ' ');
        // After a line break or another space, a leading space is layout, not content.
        out.push(/\s$/.test(out.at(-1) ?? '\n') ? collapsed.trimStart() : collapsed);
      },
      onclosetag(name) {
        const index = open.findLastIndex((element) => element.name === name);
        if (index === -1) return;
        for (const element of open.splice(index)) if (element.hides) hiddenDepth -= 1;
        if (name === 'style' && styleText !== undefined) {
          collectHiddenSelectors(styleText.join(''), hiddenSelectors);
          styleText = undefined;
        }
        if (name === 'title' && titleText !== undefined) {
          title = titleText.join('').replace(/\s+/g, ' ').trim();
          titleText = undefined;
        }
        if (hiddenDepth > 0) return;
        if (/^h[1-6]$/.test(name)) {
          if (firstHeading === '') firstHeading = out.slice(headingStart).join('').trim();
          push('\n\n');
        } else if (name === 'pre') {
          preDepth = Math.max(0, preDepth - 1);
          push('\n\n');
        } else if (name === 'tr') push('\n');
        else if (BLOCK.has(name)) push('\n\n');
        else if (name === 'a') {
          const link = links.pop();
          const text = out
            .slice(link?.start ?? out.length)
            .join('')
            .trim();
          if (link?.href !== undefined && text !== link.href)
            push(text === '' ? link.href : ` (${link.href})`);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  if (tooDeep)
    out.push(
      `\n\n[the rest of the page is nested more than ${MAX_HTML_NESTING} elements deep and is not shown]`,
    );

  const text = out
    .join('')
    .replace(/[ \t\u00A0]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title: title || firstHeading, text };
}
